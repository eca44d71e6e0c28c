# Sourced by setup.sh and setup-claude.sh before they run an npm of their own.
#
# When these scripts are started by npm (`npm test` → `npm run test:e2e`,
# `npm start` → scripts/start.mjs), their environment carries what that outer
# npm says about itself: npm_config_user_agent (`node/v20 …`), node_gyp,
# nodedir, prefix, global_prefix, local_prefix, loglevel, npm_execpath,
# npm_lifecycle_*, npm_package_*, INIT_CWD, NODE, and its node_modules/.bin
# and node-gyp-bin folders at the front of PATH. An inner npm takes those
# npm_config_* variables as its own configuration: code-server's postinstall
# then reads Node 20 from the inherited user agent and refuses to install
# under Node 24. So the inner npm must start from the environment a person's
# shell would give it, whoever started the script.
#
# Kept: what a person sets on purpose to reach their registry (registry and
# scoped registries, TLS, proxies, auth, which npmrc files, the cache folder).
# npm reads npm_config_* case-insensitively, so the names are compared in
# lower case. Names that are not shell identifiers (`npm_config_@scope:registry`,
# `npm_config_//host/:_authToken`) are invisible to bash and pass through as
# they are: both kinds are registry settings, which are kept anyway.

# npm_config_<key> that stay (lower case, as npm reads them).
STATEGATE_NPM_KEEP='registry|ca|cafile|cert|key|proxy|https_proxy|http_proxy|noproxy|no_proxy|strict_ssl|local_address|_auth|_authtoken|_password|username|email|always_auth|userconfig|globalconfig|cache|fetch_retries|fetch_retry_factor|fetch_retry_mintimeout|fetch_retry_maxtimeout|fetch_timeout|maxsockets'

stategate_clean_npm_env() {
  local name lower key
  for name in $(compgen -e); do
    lower=${name,,}
    case "$lower" in
      npm_config_*)
        key=${lower#npm_config_}
        [[ "$key" =~ ^($STATEGATE_NPM_KEEP)$ || "$key" == *:registry || "$key" == *:_authtoken ]] || unset "$name"
        ;;
      npm_*) unset "$name" ;;
    esac
  done
  unset INIT_CWD NODE
  # The folders npm puts before PATH for its scripts: the outer project's
  # node_modules/.bin (and its parents') and its own node-gyp shim.
  local dir dirs kept=()
  IFS=: read -ra dirs <<<"$PATH"
  for dir in "${dirs[@]}"; do
    case "$dir" in
      */node_modules/.bin | */run-script/lib/node-gyp-bin) ;;
      *) kept+=("$dir") ;;
    esac
  done
  PATH=$(IFS=:; echo "${kept[*]}")
  export PATH
}
