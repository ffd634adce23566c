#!/usr/bin/env bash
# Installs this checkout into examples/node_modules the way a team's repository gets pulumi-wws:
# `npm pack` (of the dist/ built by scripts/install.sh), then npm installs that tarball, a copy
# with its own dependencies. The examples' package.json files declare `pulumi-wws` as a user's
# would; @pulumi/pulumi (a peer dependency) comes from the root node_modules. Reinstalls only
# when the tarball changed. Needs Node >= 22 and npm on PATH (scripts/install.sh prints them).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="$root/.pulumi-state/examples-pack"
mkdir -p "$work"
tarball="$work/$(npm pack --ignore-scripts --silent --pack-destination "$work" 2>/dev/null | tail -n 1)"
sum="$(sha256sum "$tarball" | cut -d' ' -f1)"
if [ -f examples/node_modules/pulumi-wws/package.json ] && [ "$(cat "$work/installed.sha256" 2>/dev/null)" = "$sum" ]; then
  exit 0
fi
echo "install-examples.sh: installing $(basename "$tarball") into examples/node_modules" >&2
npm install --prefix examples --no-save --no-package-lock --legacy-peer-deps --prefer-offline --no-audit --no-fund --loglevel=error "$tarball" >&2
echo "$sum" >"$work/installed.sha256"
