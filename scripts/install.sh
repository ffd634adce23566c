#!/usr/bin/env bash
# Installs what the project needs to build and run, and prints the PATH entries to prepend
# (Node >= 22 and the pulumi CLI) as its last line: PATH="$(bash scripts/install.sh | tail -n 1):$PATH"
#
# npm ci: exactly the locked versions, or a failure when package.json and the lockfile disagree.
# After an `npm install` that rewrote the lockfile, run `node scripts/complete-lockfile.js`
# (why: see that file).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

node_bin="$(bash scripts/node22.sh)"
export PATH="$node_bin:$PATH"

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ] || [ package.json -nt node_modules/.package-lock.json ]; then
  echo "install.sh: installing npm dependencies" >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
# The package builds in `prepack` (so that installing its tarball runs no script), which `npm ci`
# does not run: dist/ is built here.
npm run -s build >&2

pulumi_bin="$(bash scripts/get-pulumi.sh | tail -n 1)"
echo "$node_bin:$pulumi_bin"
