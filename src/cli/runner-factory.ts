/**
 * The Runner every CLI command uses, with the shell analyser plugged in.
 * The analyser's modules (the shell analysis, and its WASM parser) load only
 * when a shell call is decided, so other commands and non-shell hook calls
 * never pay for them (not even for loading their code).
 */
import * as path from 'node:path';
import { requireWithCodeCache, setV8Flags } from './code-cache.js';
import { chooseStorage, findSandbox, Runner, userStateDir, type SandboxProvider, type ShellAnalyser, type ShellRewriter } from '../engine/index.js';

type ShellGate = typeof import('../engine/shell/gate.js');
type ShellBundle = ShellGate & Pick<typeof import('../engine/shell/parser.js'), 'configureShellParser'>;

let gate: ShellGate | undefined;

function shellGate(): ShellGate {
  if (!gate) {
    // A CLI process answers and exits: compile the parser's WASM without background tier-up
    // (which holds the process ~0.5-1 s at exit). Set before the shell bundle is compiled: V8
    // takes the bundle's code cache only under the flags it was made with, and the flag is part of the
    // cache's key (code-cache.ts). node:v8 is required there, not imported: a Read's process never loads it.
    setV8Flags('--liftoff-only');
    const shell = shellBundle();
    // The .wasm files sit beside the bundle.
    shell.configureShellParser({ wasmDir: __dirname });
    gate = shell;
  }
  return gate;
}

/** The built CLI's dist/cli/hook-shell.js, with its code cache (code-cache.ts); from source, its modules. */
function shellBundle(): ShellBundle {
  if (process.env.STATEGATE_BUNDLED === '1') return requireWithCodeCache(path.join(__dirname, 'hook-shell.js')).exports as ShellBundle;
  return { ...(require('../engine/shell/parser.js') as typeof import('../engine/shell/parser.js')), ...(require('../engine/shell/gate.js') as ShellGate) };
}

/**
 * `client` names this process in a shared store (`hook`, `cli`, `mcp`); the store is the
 * shared one when STATEGATE_STORE_URL is set (store-choice.ts), else `.stategate/` in `dir`.
 */
export function createRunner(dir: string, workspaceRoot?: string, client = 'cli', project?: string): Runner {
  const analyseShell: ShellAnalyser = (command, rules) => shellGate().analyseForPolicy(command, rules);
  const rewriteShell: ShellRewriter = (command, blockedEnv, overrides) => shellGate().rewriteForPolicy(command, blockedEnv, overrides);
  const storage = chooseStorage({ workspaceRoot: workspaceRoot ?? path.dirname(path.resolve(dir)), client, ...(project ? { project } : {}) });
  return new Runner({ dir, ...(workspaceRoot ? { workspaceRoot } : {}), analyseShell, rewriteShell, sandbox: sandboxProvider(), lockTimeoutMs: 3000, ...(storage ? { storage } : {}) });
}

/**
 * The kernel sandbox for allowed shell commands (src/engine/sandbox/): bubblewrap, probed once per
 * binary (bwrap-probe.ts). STATEGATE_BWRAP names another bwrap (tests, packagers); the agent cannot
 * set the hook's environment. Read-only inside: this bundle's folder and the one above it (the
 * extension's folder when the CLI runs from the extension).
 */
function sandboxProvider(): SandboxProvider {
  const override = process.env.STATEGATE_BWRAP;
  return {
    backend: () => findSandbox({ stateDir: userStateDir(), ...(override ? { candidates: [override] } : {}) }),
    installDirs: [__dirname, path.dirname(__dirname)],
  };
}
