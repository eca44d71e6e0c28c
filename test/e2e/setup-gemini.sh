#!/usr/bin/env bash
# Installs the real Gemini CLI for test/e2e/gemini-cli.test.ts, idempotently,
# outside the repository:
#   ${STATEGATE_E2E_CACHE:-$HOME/.cache/stategate-e2e}/gemini-cli
# The version is pinned (GEMINI_CLI_VERSION below, or the environment): the hook
# shapes in test/fixtures/hooks/clients/gemini.json are read from this version.
# The package is plain JavaScript (bundle/gemini.js), run by the Node on PATH.
#
# Prints, as its last line, `STATEGATE_GEMINI <path to bundle/gemini.js>`.
# Exit 3: npm could not reach its registry (the test skips on that, and only
# on that); any other failure exits 1.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/npm-env.sh"
stategate_clean_npm_env

GEMINI_CLI_VERSION=${GEMINI_CLI_VERSION:-0.61.0}
CACHE=${STATEGATE_E2E_CACHE:-$HOME/.cache/stategate-e2e}
PREFIX="$CACHE/gemini-cli"
MARK="$PREFIX/.installed"
ENTRY="$PREFIX/node_modules/@google/gemini-cli/bundle/gemini.js"

log() { printf '[gemini-setup] %s\n' "$*" >&2; }
started=$SECONDS

mkdir -p "$CACHE"
exec 9>"$CACHE/.setup-gemini.lock"
if command -v flock >/dev/null; then flock 9; fi

if [ -f "$MARK" ] && [ "$(cat "$MARK")" = "$GEMINI_CLI_VERSION" ] && [ -f "$ENTRY" ]; then
  log "Gemini CLI $GEMINI_CLI_VERSION already in $PREFIX"
  echo "STATEGATE_GEMINI $ENTRY"
  exit 0
fi

log "installing Gemini CLI $GEMINI_CLI_VERSION into $PREFIX"
rm -rf "$PREFIX"
mkdir -p "$PREFIX"
printf '{"private":true}\n' > "$PREFIX/package.json"
# --ignore-scripts: the bundle needs no build step; its optional native modules are not used here.
if ! (cd "$PREFIX" && npm install --no-audit --no-fund --loglevel=error --ignore-scripts \
        "@google/gemini-cli@$GEMINI_CLI_VERSION" >&2); then
  if ! npm ping >/dev/null 2>&1; then
    log "npm cannot reach its registry (npm ping failed): Gemini CLI cannot be installed"
    exit 3
  fi
  log "npm install @google/gemini-cli@$GEMINI_CLI_VERSION failed although the registry answers"
  exit 1
fi
[ -f "$ENTRY" ] || { log "no $ENTRY after the install"; exit 1; }
echo "$GEMINI_CLI_VERSION" > "$MARK"
log "ready in $((SECONDS - started)) s"
echo "STATEGATE_GEMINI $ENTRY"
