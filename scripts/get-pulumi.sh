#!/usr/bin/env bash
# Makes a real `pulumi` CLI (v3.259.0 by default: the version of the @pulumi/pulumi devDependency)
# plus the Node.js language host (`pulumi-language-nodejs`) and the dynamic-provider launcher
# (`pulumi-resource-pulumi-nodejs`) available, and prints the directory holding them as the LAST
# line on stdout. Progress goes to stderr.
#
#   PATH="$(bash scripts/get-pulumi.sh | tail -n 1):$PATH"
#
# Tried in order, first hit wins:
#   1. `pulumi` on PATH reporting >= the pinned version, with `pulumi-language-nodejs` on PATH.
#   2. The cache dir ~/.pulumi/versions/<version>/bin (the layout the Automation API's
#      PulumiCommand.install() uses), when its pulumi works and the two helpers are beside it.
#   3. The official release tarball (one short, bounded attempt; skipped offline).
#   4. A build from source through the Go module proxy, with the local `go`: the CLI
#      (github.com/pulumi/pulumi/pkg/v3/cmd/pulumi) and the language host
#      (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3, which has no tags of its
#      own, so it is fetched at the release commit). The modules are laid out as in the pulumi repo
#      (pkg/, sdk/, sdk/nodejs/cmd/pulumi-language-nodejs/) so that each binary is built against
#      its own released go.mod/go.sum and relative replaces, as release builds are. Go's module and
#      build caches are kept, so a rebuild is cheap. A first build takes many minutes on a small
#      machine.
#      Some module proxies refuse the language host module (it is only tried briefly). Then
#      pulumi-wws's own Node.js language host (scripts/language-host/: a wrapper that runs
#      pulumi-language-nodejs.js with the `node` on PATH) is installed in its place. It runs
#      programs (TypeScript included) like the Go host does, but cannot run policy packs or Node
#      plugins, nor generate code; see the header of pulumi-language-nodejs.js. An install that
#      uses it (cached, or found on PATH) gets its two files refreshed from this checkout when
#      they differ.
#   5. Otherwise it fails, naming the ways to provide a CLI.
#
# Environment (all optional):
#   GET_PULUMI_VERSION   version to provide (default 3.259.0; the Go module proxy available here
#                        served github.com/pulumi/pulumi/pkg/v3 only up to v3.259.0 when written)
#   GET_PULUMI_ROOT      install root (default ~/.pulumi/versions/<version>; binaries in bin/)
#   GET_PULUMI_NO_DOWNLOAD=1   skip step 3;  GET_PULUMI_NO_BUILD=1   skip step 4
#   GO                   the go binary to use (default: `go` on PATH, else /usr/local/go/bin/go)
# Idempotent; safe to run concurrently (a lock serialises installs); needs no stdin.
set -euo pipefail
exec </dev/null

VERSION="${GET_PULUMI_VERSION:-3.259.0}"
VERSION="${VERSION#v}"
ROOT="${GET_PULUMI_ROOT:-$HOME/.pulumi/versions/$VERSION}"
BIN="$ROOT/bin"
BUILD_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-build/v$VERSION"
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/.." && pwd)"

export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true

log() { echo "get-pulumi: $*" >&2; }
reasons=()
note() { reasons+=("$*"); log "$*"; }

# Prints the version (vX.Y.Z) a pulumi binary reports, or nothing.
pulumi_version_of() {
  local out
  if command -v timeout >/dev/null 2>&1; then
    out="$(timeout 30 "$1" version 2>/dev/null)" || return 0
  else
    out="$("$1" version 2>/dev/null)" || return 0
  fi
  printf '%s\n' "$out" | grep -Eo '^v?[0-9]+\.[0-9]+\.[0-9]+[^[:space:]]*' | tail -n 1 || true
}

# version_ge A B: A >= B (plain X.Y.Z, leading v ignored; a pre-release counts as below it).
version_ge() {
  local a="${1#v}" b="${2#v}"
  case "$a" in *-*) a="${a%%-*}"; [ "$a" != "$b" ] || return 1 ;; esac
  [ "$(printf '%s\n%s\n' "$b" "$a" | sort -V | head -n 1)" = "$b" ]
}

# Our own language host (used when the Go one cannot be built): a wrapper plus the .js it runs.
own_host_dir="$script_dir/language-host"
own_host_marker="pulumi-wws's own Node.js language host"
is_own_host() { [ -f "$1/pulumi-language-nodejs" ] && grep -q "$own_host_marker" "$1/pulumi-language-nodejs" 2>/dev/null; }

# When the language host in $1 is our own, brings its two files in line with this checkout's copies.
refresh_own_host() {
  local d="$1" f
  is_own_host "$d" || return 0
  for f in pulumi-language-nodejs.js pulumi-language-nodejs; do
    [ -f "$own_host_dir/$f" ] || continue
    cmp -s "$own_host_dir/$f" "$d/$f" && continue
    log "refreshing $d/$f from $own_host_dir"
    cp -f "$own_host_dir/$f" "$d/.$f.new" && chmod "$([ "$f" = pulumi-language-nodejs ] && echo 0755 || echo 0644)" "$d/.$f.new" &&
      mv -f "$d/.$f.new" "$d/$f" || return 1
  done
}

# A dir is usable when its pulumi reports exactly $VERSION and both helpers are beside it.
dir_ok() {
  local d="$1" v
  [ -x "$d/pulumi" ] && [ -x "$d/pulumi-language-nodejs" ] && [ -x "$d/pulumi-resource-pulumi-nodejs" ] || return 1
  refresh_own_host "$d" || return 1
  ! is_own_host "$d" || [ -f "$d/pulumi-language-nodejs.js" ] || return 1
  v="$(pulumi_version_of "$d/pulumi")"
  [ "$v" = "v$VERSION" ]
}
host_note() { if is_own_host "$1"; then echo "; language host: pulumi-wws's own Node.js one, needs node >= 22 on PATH"; fi; }

found() { log "using $1/pulumi ($2$(host_note "$1"))"; echo "$1"; exit 0; }

# --- 1. pulumi on PATH ---------------------------------------------------------------------------
if p="$(command -v pulumi 2>/dev/null)"; then
  v="$(pulumi_version_of "$p")"
  if [ -z "$v" ]; then
    log "pulumi on PATH ($p) prints no version; ignoring it"
  elif ! version_ge "$v" "$VERSION"; then
    log "pulumi on PATH ($p) is $v, older than v$VERSION; ignoring it"
  elif ! command -v pulumi-language-nodejs >/dev/null 2>&1; then
    log "pulumi on PATH ($p) is $v but pulumi-language-nodejs is not on PATH; ignoring it"
  else
    command -v pulumi-resource-pulumi-nodejs >/dev/null 2>&1 ||
      log "warning: pulumi-resource-pulumi-nodejs is not on PATH; dynamic providers will not load"
    refresh_own_host "$(dirname "$(command -v pulumi-language-nodejs)")" || true
    found "$(dirname "$p")" "$v from PATH"
  fi
fi

# --- 2. the cache dir ----------------------------------------------------------------------------
if dir_ok "$BIN"; then found "$BIN" "cached v$VERSION"; fi

# Everything below installs into $BIN; serialise concurrent runs and re-check once locked.
if command -v flock >/dev/null 2>&1; then
  lock="$BUILD_CACHE.lock"
  mkdir -p "$(dirname "$lock")"
  exec 9>"$lock"
  if ! flock -n 9; then
    log "another get-pulumi run holds $lock; waiting for it"
    flock 9
  fi
  if dir_ok "$BIN"; then found "$BIN" "cached v$VERSION"; fi
fi
[ ! -e "$BIN" ] || log "$BIN exists but is incomplete or broken; reinstalling"

# Moves the three binaries (and our language host's .js, if that is the host) from $1 into $BIN
# (each rename is atomic).
install_from() {
  local src="$1" f
  mkdir -p "$BIN"
  if [ -f "$src/pulumi-language-nodejs.js" ]; then
    cp -f "$src/pulumi-language-nodejs.js" "$BIN/.pulumi-language-nodejs.js.new" &&
      mv -f "$BIN/.pulumi-language-nodejs.js.new" "$BIN/pulumi-language-nodejs.js" || return 1
  else
    rm -f "$BIN/pulumi-language-nodejs.js"
  fi
  for f in pulumi-resource-pulumi-nodejs pulumi-language-nodejs pulumi; do
    cp -f "$src/$f" "$BIN/.$f.new" && chmod 0755 "$BIN/.$f.new" && mv -f "$BIN/.$f.new" "$BIN/$f" || return 1
  done
}

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) goos=linux goarch=amd64 rel=linux-x64 ;;
  Linux-aarch64 | Linux-arm64) goos=linux goarch=arm64 rel=linux-arm64 ;;
  Darwin-x86_64) goos=darwin goarch=amd64 rel=darwin-x64 ;;
  Darwin-arm64) goos=darwin goarch=arm64 rel=darwin-arm64 ;;
  *) goos="" goarch="" rel="" ;;
esac

# --- 3. official release tarball -----------------------------------------------------------------
try_download() {
  local url tmp
  if [ "${GET_PULUMI_NO_DOWNLOAD:-}" = 1 ]; then log "download skipped (GET_PULUMI_NO_DOWNLOAD=1)"; return 1; fi
  [ -n "$rel" ] || { note "download: no release build for $(uname -s)-$(uname -m)"; return 1; }
  command -v curl >/dev/null 2>&1 || { note "download: curl not found"; return 1; }
  url="https://get.pulumi.com/releases/sdk/pulumi-v$VERSION-$rel.tar.gz"
  if ! curl -fsS -o /dev/null -r 0-0 --connect-timeout 5 --max-time 15 "$url" 2>/dev/null; then
    note "download: $url is not reachable"
    return 1
  fi
  log "downloading $url"
  tmp="$(mktemp -d)"
  if curl -fsSL --connect-timeout 10 --max-time 600 "$url" | tar -xzf - -C "$tmp" &&
    [ -x "$tmp/pulumi/pulumi" ] && [ -x "$tmp/pulumi/pulumi-language-nodejs" ] &&
    [ -x "$tmp/pulumi/pulumi-resource-pulumi-nodejs" ]; then
    # The other language hosts and helpers ship too; keep them.
    if mkdir -p "$BIN" && cp -f "$tmp"/pulumi/* "$BIN/" && install_from "$tmp/pulumi"; then
      rm -rf "$tmp"
      return 0
    fi
  fi
  rm -rf "$tmp"
  note "download: $url failed or did not hold the expected binaries"
  return 1
}
if try_download && dir_ok "$BIN"; then found "$BIN" "downloaded v$VERSION"; fi

# --- 4. build from source through the Go module proxy --------------------------------------------
# Prints the value of a top-level string field ("Dir", "Error", ...) or of Origin's "Hash" from
# `go mod download -json` output.
json_field() {
  grep -E "^[[:space:]]*\"$1\": \"" | head -n 1 | sed -E 's/^[^:]*: "(.*)",?$/\1/; s/\\[nt]/ /g' || true
}

# Copies the dynamic-provider launcher shipped by the Node SDK (the sdk module's nodejs/dist, else
# the @pulumi/pulumi package in this repo) to $1. It resolves @pulumi/pulumi/cmd/dynamic-provider
# with `node -e require.resolve(...)` from the cwd, i.e. from the program's own node_modules.
install_launcher() {
  local dest="$1" c
  for c in "${sdk_dir:-/nonexistent}/nodejs/dist/pulumi-resource-pulumi-nodejs" \
    "$repo_root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"; do
    if [ -f "$c" ]; then
      log "dynamic-provider launcher from $c"
      cp -f "$c" "$dest"
      chmod 0755 "$dest"
      return 0
    fi
  done
  log "no pulumi-resource-pulumi-nodejs found; writing the equivalent launcher"
  cat >"$dest" <<'EOF'
#!/bin/sh
# Equivalent of the launcher shipped in @pulumi/pulumi: run the dynamic provider of the
# @pulumi/pulumi that the program (the cwd) resolves.
PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH=$(node -e "console.log(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))")
if [ -n "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" ]; then
    exec node "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" "$@"
fi
exit 1
EOF
  chmod 0755 "$dest"
}

try_build() {
  local go_bin mod_json pkg_json lh_json pkg_dir lh_dir lh_ver commit err msg need have src out ldflags
  if [ "${GET_PULUMI_NO_BUILD:-}" = 1 ]; then log "build skipped (GET_PULUMI_NO_BUILD=1)"; return 1; fi
  go_bin="${GO:-$(command -v go 2>/dev/null || true)}"
  if [ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ]; then go_bin=/usr/local/go/bin/go; fi
  if [ -z "$go_bin" ] || ! "$go_bin" version >/dev/null 2>&1; then
    note "build: no working go toolchain found (put go on PATH or set GO)"
    return 1
  fi
  export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -buildvcs=false"
  [ -z "$goos" ] || export GOOS="$goos" GOARCH="$goarch"
  log "build: using $("$go_bin" version) ($go_bin)"

  local sdk_mod="github.com/pulumi/pulumi/sdk/v3" pkg_mod="github.com/pulumi/pulumi/pkg/v3"
  local lh_mod="github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"
  log "build: fetching $sdk_mod@v$VERSION and $pkg_mod@v$VERSION"
  mod_json="$(cd / && "$go_bin" mod download -json "$sdk_mod@v$VERSION" 2>&1 || true)"
  pkg_json="$(cd / && "$go_bin" mod download -json "$pkg_mod@v$VERSION" 2>&1 || true)"
  sdk_dir="$(json_field Dir <<<"$mod_json")"
  pkg_dir="$(json_field Dir <<<"$pkg_json")"
  [ -n "$sdk_dir" ] || { note "build: cannot fetch $sdk_mod@v$VERSION: $(json_field Error <<<"$mod_json" | head -c 300)"; return 1; }
  [ -n "$pkg_dir" ] || { note "build: cannot fetch $pkg_mod@v$VERSION: $(json_field Error <<<"$pkg_json" | head -c 300)"; return 1; }

  need="$(sed -nE 's/^go ([0-9.]+).*/\1/p' "$pkg_dir/go.mod" | head -n 1)"
  have="$("$go_bin" env GOVERSION)"; have="${have#go}"
  if [ -n "$need" ] && ! version_ge "$have" "$need"; then
    note "build: pulumi v$VERSION needs go >= $need, found $have"
    return 1
  fi

  # The language host module has no tags: take it at the commit the release tag points at. Some
  # proxies refuse this module outright; the attempt is bounded and its failure only logged.
  commit="$(json_field Hash <<<"$mod_json")"
  [ -n "$commit" ] || commit="$(json_field Hash <<<"$pkg_json")"
  lh_dir=""
  if [ -z "$commit" ]; then
    log "build: the module proxy gives no commit for v$VERSION, so $lh_mod cannot be pinned"
  else
    log "build: release commit $commit; trying $lh_mod at it"
    if command -v timeout >/dev/null 2>&1; then
      lh_json="$(cd / && timeout 120 "$go_bin" mod download -json "$lh_mod@$commit" 2>&1 || true)"
    else
      lh_json="$(cd / && "$go_bin" mod download -json "$lh_mod@$commit" 2>&1 || true)"
    fi
    lh_dir="$(json_field Dir <<<"$lh_json")"
    lh_ver="$(json_field Version <<<"$lh_json")"
    if [ -n "$lh_dir" ]; then
      log "build: language host is $lh_mod@$lh_ver"
    else
      # Keep it short: the HTTP status when there is one (a refusing proxy answers 403/404/410).
      msg="$(json_field Error <<<"$lh_json")"
      err="$(grep -Eo '[0-9]{3} [A-Z][a-z]+( [A-Z][a-z]+)*' <<<"$msg" | head -n 1 || true)"
      [ -n "$err" ] || err="$(printf '%s' "$msg" | tail -c 200)"
      log "build: cannot fetch $lh_mod@$commit: ${err:-unknown error}"
    fi
  fi

  # The repo layout, so that the relative replaces of pkg/go.mod (../sdk) and of the language
  # host's go.mod (../../../, ../../../../pkg) apply. Copies: the module cache is read-only.
  src="$BUILD_CACHE/src"
  out="$BUILD_CACHE/out"
  log "build: laying out the sources in $src"
  rm -rf "$src" "$out" && mkdir -p "$src/sdk/nodejs/cmd" "$out" &&
    cp -R "$pkg_dir" "$src/pkg" &&
    cp -R "$sdk_dir/." "$src/sdk/" &&
    { [ -z "$lh_dir" ] || cp -R "$lh_dir" "$src/sdk/nodejs/cmd/pulumi-language-nodejs"; } &&
    chmod -R u+w "$src" || { note "build: cannot lay out the sources in $src"; return 1; }

  ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$VERSION"
  log "build: compiling pulumi (CGO_ENABLED=0, -tags osusergo,grpcnotrace; a first build takes many minutes)"
  (cd "$src/pkg" && "$go_bin" list -m "$pkg_mod" "$sdk_mod" >&2 &&
    "$go_bin" build -trimpath -tags osusergo,grpcnotrace -ldflags "$ldflags" -o "$out/pulumi" ./cmd/pulumi) ||
    { note "build: compiling $pkg_mod/cmd/pulumi failed"; return 1; }
  if [ -n "$lh_dir" ]; then
    log "build: compiling pulumi-language-nodejs"
    (cd "$src/sdk/nodejs/cmd/pulumi-language-nodejs" && "$go_bin" list -m "$pkg_mod" "$sdk_mod" >&2 &&
      "$go_bin" build -trimpath -tags osusergo,grpcnotrace -ldflags "$ldflags" -o "$out/pulumi-language-nodejs" .) ||
      { log "build: compiling $lh_mod failed"; rm -f "$out/pulumi-language-nodejs"; }
  fi
  if [ ! -x "$out/pulumi-language-nodejs" ]; then
    if [ ! -f "$own_host_dir/pulumi-language-nodejs.js" ] || [ ! -f "$own_host_dir/pulumi-language-nodejs" ]; then
      note "build: no Go language host and $own_host_dir is missing"
      return 1
    fi
    log "build: the official (Go) pulumi-language-nodejs could not be built; installing pulumi-wws's"
    log "       OWN Node.js language host from $own_host_dir instead (it runs with the node on PATH,"
    log "       Node >= 22; no policy packs, Node plugins or codegen)"
    cp -f "$own_host_dir/pulumi-language-nodejs" "$own_host_dir/pulumi-language-nodejs.js" "$out/" ||
      { note "build: cannot copy $own_host_dir"; return 1; }
  fi
  install_launcher "$out/pulumi-resource-pulumi-nodejs" &&
    install_from "$out" || { note "build: cannot install into $BIN"; return 1; }
  rm -rf "$src" "$out"
  return 0
}
if try_build && dir_ok "$BIN"; then found "$BIN" "built v$VERSION from source"; fi

# --- 5. nothing worked ---------------------------------------------------------------------------
{
  echo "get-pulumi: could not provide pulumi v$VERSION with the Node.js language host."
  for r in "${reasons[@]}"; do echo "  - $r"; done
  echo "Any one of these fixes it:"
  echo "  * put pulumi >= v$VERSION on PATH together with pulumi-language-nodejs and"
  echo "    pulumi-resource-pulumi-nodejs (e.g. the official release tarball or installer);"
  echo "  * fill the cache dir $BIN with pulumi (reporting v$VERSION), pulumi-language-nodejs and"
  echo "    pulumi-resource-pulumi-nodejs (e.g. unpack pulumi-v$VERSION-<os>-<arch>.tar.gz there, or"
  echo "    run the Automation API's PulumiCommand.install({version: \"$VERSION\"}));"
  echo "  * install go (>= the go directive of pulumi's pkg/go.mod) with access to a Go module proxy"
  echo "    that serves github.com/pulumi/pulumi/pkg/v3@v$VERSION and sdk/v3@v$VERSION (and, for the"
  echo "    official language host, sdk/nodejs/cmd/pulumi-language-nodejs/v3 at the release commit;"
  echo "    without it pulumi-wws's own one from scripts/language-host/ is used); then rerun."
} >&2
exit 1
