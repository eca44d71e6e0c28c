#!/usr/bin/env bash
# Installs the real Codex CLI for test/e2e/codex-cli.test.ts (npm-cli-install.sh
# does the work) into ${STATEGATE_E2E_CACHE:-$HOME/.cache/stategate-e2e}/codex-cli.
# The version is pinned (CODEX_VERSION below, or the environment): the hook
# inputs in test/fixtures/hooks/codex-recorded/ are this version's.
# `@openai/codex` is a JavaScript launcher; its platform package
# (`@openai/codex-linux-x64`, an alias of `@openai/codex@<version>-linux-x64` on
# the same registry) carries the native binary, which is run directly.
#
# Prints, as its last line, `STATEGATE_CODEX <path to the codex binary>`.
# Exit 3: npm could not reach its registry; any other failure exits 1.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/npm-cli-install.sh"
arch=$(stategate_npm_arch)
triple=$([ "$arch" = x64 ] && echo x86_64 || echo aarch64)-unknown-linux-musl
stategate_install_cli STATEGATE_CODEX codex-cli @openai/codex "${CODEX_VERSION:-0.171.0}" "@openai/codex-linux-$arch/vendor/$triple/bin/codex"
