#!/usr/bin/env bash
# Installs the real OpenCode for test/e2e/opencode.test.ts (npm-cli-install.sh
# does the work) into ${STATEGATE_E2E_CACHE:-$HOME/.cache/stategate-e2e}/opencode.
# The version is pinned (OPENCODE_VERSION below, or the environment): the plugin
# hooks stategate's plugin uses are read from this version's @opencode-ai/plugin.
# `opencode-ai` is a launcher; its platform package (`opencode-linux-x64`)
# carries the native binary, which is run directly (the launcher's placeholder
# is replaced only by an install script, which is not run).
#
# Prints, as its last line, `STATEGATE_OPENCODE <path to the opencode binary>`.
# Exit 3: npm could not reach its registry; any other failure exits 1.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/npm-cli-install.sh"
arch=$(stategate_npm_arch)
stategate_install_cli STATEGATE_OPENCODE opencode opencode-ai "${OPENCODE_VERSION:-1.18.33}" "opencode-linux-$arch/bin/opencode"
