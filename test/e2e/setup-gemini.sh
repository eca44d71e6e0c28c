#!/usr/bin/env bash
# Installs the real Gemini CLI for test/e2e/gemini-cli.test.ts (npm-cli-install.sh
# does the work) into ${STATEGATE_E2E_CACHE:-$HOME/.cache/stategate-e2e}/gemini-cli.
# The version is pinned (GEMINI_CLI_VERSION below, or the environment): the hook
# shapes in test/fixtures/hooks/clients/gemini.json are read from this version.
# The package is plain JavaScript (bundle/gemini.js), run by the Node on PATH.
#
# Prints, as its last line, `STATEGATE_GEMINI <path to bundle/gemini.js>`.
# Exit 3: npm could not reach its registry; any other failure exits 1.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/npm-cli-install.sh"
stategate_install_cli STATEGATE_GEMINI gemini-cli @google/gemini-cli "${GEMINI_CLI_VERSION:-0.61.0}" @google/gemini-cli/bundle/gemini.js
