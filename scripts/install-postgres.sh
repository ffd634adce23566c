#!/usr/bin/env bash
# PostgreSQL for the shared-backend test (test/e2e/shared-backend.test.ts): Debian's `postgresql`
# package when no initdb is found. The test starts a server of its own on 127.0.0.1; the cluster
# the package may start is not used. Without apt-get or root, says what is missing: the test then
# fails naming it (it never skips).
set -uo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "install-postgres.sh: installing PostgreSQL (apt-get install postgresql)" >&2
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2 && exit 0
fi
echo "install-postgres.sh: PostgreSQL is missing and could not be installed (apt-get install postgresql)" >&2
