# Sourced by setup-gemini.sh, setup-codex.sh and setup-opencode.sh: installs one
# pinned agent CLI from the npm registry into the e2e cache, outside the
# repository, idempotently (a second run finds it and returns at once), and
# prints where the file to run is.
#
#   stategate_install_cli TAG DIR PACKAGE VERSION ENTRY
#
# TAG: the first word of the last line printed (`TAG <path>`), read by the test;
# DIR: the folder under ${STATEGATE_E2E_CACHE:-$HOME/.cache/stategate-e2e};
# ENTRY: the file to run, relative to DIR/node_modules (a platform package's
# native binary for Codex and OpenCode: npm installs the one for this machine
# as an optional dependency, from the same registry; nothing else is fetched).
#
# --ignore-scripts: no package's install script runs. Gemini CLI needs none;
# OpenCode's only copies its platform binary over a placeholder, and the
# binary is run from its own package instead.
#
# Exit 3: npm could not reach its registry (the tests skip on that, and only on
# that); any other failure exits 1.

stategate_install_cli() {
  local tag=$1 dir=$2 package=$3 version=$4 entry=$5
  local cache=${STATEGATE_E2E_CACHE:-$HOME/.cache/stategate-e2e}
  local prefix="$cache/$dir"
  local mark="$prefix/.installed"
  local path="$prefix/node_modules/$entry"
  local started=$SECONDS
  log() { printf '[%s-setup] %s\n' "$dir" "$*" >&2; }

  source "$(dirname "${BASH_SOURCE[0]}")/npm-env.sh"
  stategate_clean_npm_env

  mkdir -p "$cache"
  exec 9>"$cache/.setup-$dir.lock"
  if command -v flock >/dev/null; then flock 9; fi

  if [ -f "$mark" ] && [ "$(cat "$mark")" = "$version" ] && [ -f "$path" ]; then
    log "$package $version already in $prefix"
    echo "$tag $path"
    return 0
  fi

  log "installing $package $version into $prefix"
  rm -rf "$prefix"
  mkdir -p "$prefix"
  printf '{"private":true}\n' > "$prefix/package.json"
  if ! (cd "$prefix" && npm install --no-audit --no-fund --loglevel=error --ignore-scripts "$package@$version" >&2); then
    if ! npm ping >/dev/null 2>&1; then
      log "npm cannot reach its registry (npm ping failed): $package cannot be installed"
      return 3
    fi
    log "npm install $package@$version failed although the registry answers"
    return 1
  fi
  [ -f "$path" ] || { log "no $path after the install (no package for this platform?)"; return 1; }
  echo "$version" > "$mark"
  log "ready in $((SECONDS - started)) s"
  echo "$tag $path"
}

# The platform part of a native package's name on this machine: x64 or arm64.
stategate_npm_arch() {
  case "$(uname -m)" in
    x86_64|amd64) echo x64 ;;
    aarch64|arm64) echo arm64 ;;
    *) echo "unsupported machine $(uname -m)" >&2; return 1 ;;
  esac
}
