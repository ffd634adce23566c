#!/usr/bin/env bash
# examples/fleet in one command, from a fresh clone: installs what is missing (Node >= 22, the npm
# dependencies and dist/, the pulumi CLI, PostgreSQL), then runs bench/fleet-demo.ts: the local
# service and a PostgreSQL backend of its own, the fleet's up (every stack previewed through CI's
# gate first), a preview that changes nothing, one stack more, the destroy; then both stop.
#
#   bash scripts/fleet-demo.sh [--stacks=3] [--pods=5]
set -euo pipefail
exec </dev/null
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
PATH="$(bash scripts/install.sh | tail -n 1):$PATH"
export PATH
bash scripts/install-postgres.sh
exec node dist/bench/fleet-demo.js "$@"
