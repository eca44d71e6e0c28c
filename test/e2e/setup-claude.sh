#!/usr/bin/env bash
# Installs the real Claude Code CLI for test/e2e/claude-code.test.ts,
# idempotently, without questions, outside the repository:
#   ${STATEGATE_E2E_CACHE:-$HOME/.cache/stategate-e2e}/claude-code
# The version is pinned (CLAUDE_CODE_VERSION below, or the environment): the
# recorded hook inputs in test/fixtures/hooks/claude-code-recorded/ are that
# version's. A second run finds it in place and returns at once.
#
# The npm package is a thin wrapper whose platform package
# (@anthropic-ai/claude-code-linux-x64, ...) carries a native binary, so it
# runs whatever Node is on PATH (its `engines` asks for Node 22; only the
# wrapper's scripts would care, and the binary is used directly).
#
# Prints, as its last line, `STATEGATE_CLAUDE <path to the binary>`.
# Exit 3: npm could not reach its registry (the test skips on that, and only
# on that); any other failure exits 1.
set -euo pipefail

# Started by npm or by hand, the inner npm below gets the same environment.
source "$(dirname "${BASH_SOURCE[0]}")/npm-env.sh"
stategate_clean_npm_env

CLAUDE_CODE_VERSION=${CLAUDE_CODE_VERSION:-2.1.330}
CACHE=${STATEGATE_E2E_CACHE:-$HOME/.cache/stategate-e2e}
PREFIX="$CACHE/claude-code"
MARK="$PREFIX/.installed"

log() { printf '[claude-setup] %s\n' "$*" >&2; }
started=$SECONDS

mkdir -p "$CACHE"
exec 9>"$CACHE/.setup-claude.lock"
if command -v flock >/dev/null; then flock 9; fi

# The native binary for this machine: the platform package's, else the
# wrapper's bin/claude.exe (which its postinstall replaces with the same file).
find_binary() {
  local arch libc=""
  case "$(uname -m)" in
    x86_64|amd64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) return 1 ;;
  esac
  if [ -f /etc/alpine-release ] || ldd --version 2>&1 | grep -qi musl; then libc=-musl; fi
  local candidates=(
    "$PREFIX/node_modules/@anthropic-ai/claude-code-linux-$arch$libc/claude"
    "$PREFIX/node_modules/@anthropic-ai/claude-code/bin/claude.exe"
  )
  local c
  for c in "${candidates[@]}"; do
    if [ -x "$c" ] && [[ "$("$c" --version 2>/dev/null)" == "$CLAUDE_CODE_VERSION"* ]]; then
      echo "$c"
      return 0
    fi
  done
  return 1
}

if [ -f "$MARK" ] && [ "$(cat "$MARK")" = "$CLAUDE_CODE_VERSION" ] && bin=$(find_binary); then
  log "Claude Code $CLAUDE_CODE_VERSION already in $PREFIX"
  echo "STATEGATE_CLAUDE $bin"
  exit 0
fi

log "installing Claude Code $CLAUDE_CODE_VERSION into $PREFIX"
rm -rf "$PREFIX"
mkdir -p "$PREFIX"
# allowScripts: the wrapper's postinstall only copies the platform binary over its placeholder.
printf '{"private":true,"allowScripts":{"@anthropic-ai/claude-code":true}}\n' > "$PREFIX/package.json"
if ! (cd "$PREFIX" && npm install --no-audit --no-fund --loglevel=error --engine-strict=false \
        "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" >&2); then
  if ! npm ping >/dev/null 2>&1; then
    log "npm cannot reach its registry (npm ping failed): Claude Code cannot be installed"
    exit 3
  fi
  log "npm install @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION failed although the registry answers"
  exit 1
fi
bin=$(find_binary) || { log "no runnable Claude Code $CLAUDE_CODE_VERSION binary under $PREFIX/node_modules"; exit 1; }
echo "$CLAUDE_CODE_VERSION" > "$MARK"
log "ready in $((SECONDS - started)) s ($("$bin" --version))"
echo "STATEGATE_CLAUDE $bin"
