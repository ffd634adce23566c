#!/usr/bin/env bash
# The quickstart, from a fresh clone, in one command:
#
#   bash scripts/demo.sh            # up: install what is missing, start the local service, `pulumi up`
#   bash scripts/demo.sh destroy    # delete the workloads, the stack and everything the demo wrote
#
# 1. Installs what is missing (scripts/install.sh): Node >= 22, the npm dependencies (which also
#    builds dist/), a `pulumi` CLI with its Node.js language host; then the packed checkout into
#    examples/node_modules, where the quickstart finds `pulumi-wws` (scripts/install-examples.sh).
# 2. Starts the local service in the background (killed when this script exits), persisting its
#    state in .pulumi-state/service so that the next run finds the workloads again, on the port of
#    the last run when it is free, else on any free port. Its reconciler runs at the service's
#    default pace (400 ms per step: a workload is Running about a second after it is accepted);
#    WWS_DEMO_RECONCILE_MS=<ms> changes it.
# 3. Selects (or creates) the stack `demo` on a local file backend in .pulumi-state/backend, with
#    the stack config: wws:baseUrl, wws:workspace demo, wws:apiKey (secret, the local service's
#    `demo-key`) and the VM and database passwords (secrets, generated once). Secrets are
#    encrypted with a passphrase generated into .pulumi-state/passphrase, unless
#    PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE is set.
# 4. Runs `pulumi up --yes` of the quickstart (the root Pulumi.yaml: examples/quickstart/) and
#    prints the stack outputs.
# Idempotent: a second run changes nothing. Needs no stdin (CI=true works). .pulumi-state/ and
# Pulumi.demo.yaml are gitignored.
set -euo pipefail
exec </dev/null

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
action="${1:-up}"
case "$action" in
  up | destroy) ;;
  -h | --help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "usage: bash scripts/demo.sh [up|destroy]" >&2; exit 2 ;;
esac

STACK=demo
WORKSPACE=demo
API_KEY=demo-key # the local service's default key of workspace `demo`
state="$root/.pulumi-state"
started=$(date +%s)
say() { printf '\n==> %s\n' "$*"; }

# --- 1. what is needed ----------------------------------------------------------------------------
say "Node >= 22, npm dependencies, pulumi CLI"
tool_paths="$(bash scripts/install.sh | tail -n 1)" # Node >= 22 and the pulumi CLI
export PATH="$tool_paths:$PATH"
echo "node $(node --version), pulumi $(pulumi version)"
bash scripts/install-examples.sh # the quickstart's `pulumi-wws`: this checkout, packed and installed

# --- 2. state dirs, one demo at a time ------------------------------------------------------------
mkdir -p "$state/backend" "$state/service"
chmod 700 "$state"
if command -v flock >/dev/null 2>&1; then
  exec 8>"$state/lock"
  flock -n 8 || { echo "demo.sh: another demo.sh is running in $root" >&2; exit 1; }
fi

export PULUMI_BACKEND_URL="file://$state/backend"
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
if [ -z "${PULUMI_CONFIG_PASSPHRASE:-}" ] && [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then
  if [ ! -s "$state/passphrase" ]; then
    if [ -f "Pulumi.$STACK.yaml" ] && grep -q '^encryptionsalt:' "Pulumi.$STACK.yaml"; then
      # Its secrets were encrypted with a passphrase that is gone with the old .pulumi-state/.
      stale=".pulumi-state/orphaned/Pulumi.$STACK.yaml.$(date +%Y%m%d%H%M%S)"
      echo "demo.sh: Pulumi.$STACK.yaml belongs to a removed .pulumi-state/ (its passphrase is gone); moving it to $stale"
      mkdir -p "$state/orphaned"
      mv "Pulumi.$STACK.yaml" "$stale"
    fi
    (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(24).toString("base64url"))' >"$state/passphrase")
  fi
  export PULUMI_CONFIG_PASSPHRASE_FILE="$state/passphrase"
fi

# --- 3. the local service -------------------------------------------------------------------------
svc_pid=""
stop_service() {
  if [ -n "$svc_pid" ] && kill -0 "$svc_pid" 2>/dev/null; then
    kill "$svc_pid" 2>/dev/null || true
    wait "$svc_pid" 2>/dev/null || true
  fi
  svc_pid=""
}
trap stop_service EXIT
trap 'exit 130' INT TERM

# Starts the service on port $1; sets $url. Fails when it does not come up (e.g. the port is taken).
start_service() {
  local args=(--port "$1" --data-dir "$state/service" --quiet)
  [ -z "${WWS_DEMO_RECONCILE_MS:-}" ] || args+=(--reconcile-ms "$WWS_DEMO_RECONCILE_MS")
  node dist/server/cli.js "${args[@]}" >"$state/service.log" 2>&1 &
  svc_pid=$!
  for _ in $(seq 1 150); do
    url="$(sed -n 's/.*listening on \(http:\/\/[^ ]*\).*/\1/p' "$state/service.log" | head -n 1)"
    [ -z "$url" ] || return 0
    kill -0 "$svc_pid" 2>/dev/null || break
    sleep 0.1
  done
  stop_service
  return 1
}

say "local service"
url=""
last_port="$(cat "$state/service.port" 2>/dev/null || true)"
if ! { [ -n "$last_port" ] && start_service "$last_port"; }; then
  [ -z "$last_port" ] || echo "port $last_port is taken; using another one (the stack records the new URL; nothing is sent for it)"
  start_service 0 || { cat "$state/service.log" >&2; echo "demo.sh: the local service did not start" >&2; exit 1; }
fi
echo "${url##*:}" >"$state/service.port"
echo "listening on $url (workspace $WORKSPACE, reconciler $( [ -n "${WWS_DEMO_RECONCILE_MS:-}" ] && echo "${WWS_DEMO_RECONCILE_MS} ms" || echo "400 ms") per step; log: .pulumi-state/service.log)"

# --- 4. the stack ---------------------------------------------------------------------------------
if [ "$action" = destroy ]; then
  say "pulumi destroy"
  if pulumi stack select "$STACK" --non-interactive >/dev/null 2>&1; then
    pulumi destroy --yes --non-interactive --stack "$STACK"
    pulumi stack rm "$STACK" --yes --non-interactive
  else
    echo "no stack $STACK: nothing to destroy"
  fi
  stop_service
  rm -rf "$state" "Pulumi.$STACK.yaml"
  say "done: the workloads are deleted; .pulumi-state/ and Pulumi.$STACK.yaml are removed"
  exit 0
fi

say "stack $STACK (backend $PULUMI_BACKEND_URL)"
pulumi stack select --create "$STACK" --non-interactive
pulumi config set --stack "$STACK" wws:baseUrl "$url"
pulumi config set --stack "$STACK" wws:workspace "$WORKSPACE"
# Secrets go in through stdin, never on a command line; each is set once (a new database password
# would mean a new database).
set_secret_once() {
  if ! pulumi config get --stack "$STACK" "$1" >/dev/null 2>&1; then
    printf '%s' "$2" | pulumi config set --stack "$STACK" --secret "$1"
    echo "set $1 (secret)"
  fi
}
generate() { node -e 'process.stdout.write("Wws-" + require("crypto").randomBytes(18).toString("base64url"))'; }
set_secret_once wws:apiKey "$API_KEY"
set_secret_once vmPassword "$(generate)"
set_secret_once dbPassword "$(generate)"

say "pulumi up (the quickstart: examples/quickstart)"
up_started=$(date +%s)
pulumi up --yes --non-interactive --stack "$STACK"
up_done=$(date +%s)

say "stack outputs"
pulumi stack output --stack "$STACK"

if [ -n "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then passphrase_env="PULUMI_CONFIG_PASSPHRASE_FILE=$PULUMI_CONFIG_PASSPHRASE_FILE"; else passphrase_env="PULUMI_CONFIG_PASSPHRASE=<yours>"; fi
cat <<EOF

Done in $((up_done - started)) s (pulumi up: $((up_done - up_started)) s). Run it again: nothing changes.
The state is in .pulumi-state/ (file backend, the service's data, the passphrase) and the stack
config in Pulumi.$STACK.yaml; both are gitignored. The local service stopped with this script; the
next run starts it again with the same workloads.

By hand (from $root):
  export PATH="$tool_paths:\$PATH" PULUMI_BACKEND_URL=$PULUMI_BACKEND_URL
  export $passphrase_env
  npm run service -- --port ${url##*:} --data-dir .pulumi-state/service &   # the service, in the background
  pulumi preview --stack $STACK                                      # or refresh, up, stack output

Clean up (deletes the workloads, the stack, .pulumi-state/ and Pulumi.$STACK.yaml):
  bash scripts/demo.sh destroy
EOF
