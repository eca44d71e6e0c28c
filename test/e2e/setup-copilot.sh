#!/usr/bin/env bash
# Installs the real GitHub Copilot CLI for test/e2e/copilot-cli.test.ts
# (npm-cli-install.sh does the work) into
# ${STATEGATE_E2E_CACHE:-$HOME/.cache/stategate-e2e}/copilot-cli.
# The version is pinned (COPILOT_CLI_VERSION below, or the environment): the
# hook shapes in test/fixtures/hooks/clients/copilot.json were checked against it.
# `@github/copilot` is a launcher; its platform package (`@github/copilot-linux-x64`)
# carries the native binary, which is run directly (so the launcher's own
# update logic does not run either).
#
# Prints, as its last line, `STATEGATE_COPILOT <path to the copilot binary>`.
# Exit 3: npm could not reach its registry; any other failure exits 1.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/npm-cli-install.sh"
arch=$(stategate_npm_arch)
stategate_install_cli STATEGATE_COPILOT copilot-cli @github/copilot "${COPILOT_CLI_VERSION:-1.0.102}" "@github/copilot-linux-$arch/copilot"
