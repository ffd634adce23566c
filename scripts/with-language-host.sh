#!/usr/bin/env bash
# Runs a command with the pulumi CLI beside another Node.js language host, such as Pulumi's
# official `pulumi-language-nodejs` (built from pulumi/pulumi at the CLI's tag), so that the CLI
# tests run programs through that host. The CLI takes the host beside its own binary (a host
# elsewhere on PATH makes it warn on every run), and scripts/get-pulumi.sh takes a `pulumi` first
# on PATH, so the CLI, its provider launcher and the host are copied into one temporary directory.
#
#   bash scripts/with-language-host.sh ~/official/pulumi-language-nodejs npx jest test/reliability/cli-progress-cancel.test.ts
set -euo pipefail
[ $# -ge 2 ] && [ -x "$1" ] || { echo "usage: $0 <pulumi-language-nodejs binary> <command> [args…]" >&2; exit 2; }
host="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli_dir="$(bash "$root/scripts/get-pulumi.sh" | tail -n 1)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# A `bin` directory: the Automation API takes a CLI by its install root, `<root>/bin/pulumi`.
dir="$tmp/bin"
mkdir "$dir"
cp "$cli_dir/pulumi" "$cli_dir/pulumi-resource-pulumi-nodejs" "$dir/"
cp "$host" "$dir/pulumi-language-nodejs"
echo "with-language-host: $host beside a copy of $cli_dir/pulumi" >&2
PATH="$dir:$PATH" "$@"
