/**
 * Assignments before an allowed command that the risk tables would refuse by
 * their name (PYTHONPATH, CARGO_*, GIT_*, PIP_*, RUSTFLAGS, ...) but that add
 * nothing to what the command runs anyway, by their value or by the command:
 *
 * - a search path into the workspace before a tool that runs the workspace's
 *   code anyway (`PYTHONPATH=src pytest`: pytest imports the project's
 *   conftest.py and tests, which the agent writes);
 * - settings that only choose colours, prompts, caches, authors or lint
 *   levels (`CARGO_TERM_COLOR=always`, `GIT_AUTHOR_NAME=x`,
 *   `RUSTFLAGS="-D warnings"`), and a pager that is no pager (`GIT_PAGER=cat`).
 *
 * Everything else in the tables stays refused (LD_PRELOAD, BASH_ENV,
 * NODE_OPTIONS=--require, GIT_SSH_COMMAND, PAGER=less, GNUMAKEFLAGS, ...).
 * The reasoning: docs/design/shell-parser.md, "Assignments".
 */
import { programName, type Assignment } from './command-args';
import type { Word } from './words';

/** Only choose output, prompts, caches, authorship or retries: any value. */
const SETTINGS = new Set([
  'CARGO_TERM_COLOR', 'CARGO_TERM_VERBOSE', 'CARGO_TERM_QUIET', 'CARGO_TERM_PROGRESS_WHEN', 'CARGO_INCREMENTAL', 'CARGO_NET_RETRY', 'CARGO_NET_OFFLINE',
  'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_AUTHOR_DATE', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_COMMITTER_DATE', 'GIT_TERMINAL_PROMPT',
  'GIT_OPTIONAL_LOCKS', 'GIT_MERGE_AUTOEDIT', 'GIT_FLUSH',
  'PIP_NO_CACHE_DIR', 'PIP_DISABLE_PIP_VERSION_CHECK', 'PIP_NO_INPUT', 'PIP_PROGRESS_BAR', 'PIP_NO_COLOR', 'PIP_QUIET', 'PIP_ROOT_USER_ACTION',
  'YARN_ENABLE_IMMUTABLE_INSTALLS', 'YARN_ENABLE_PROGRESS_BARS', 'YARN_ENABLE_TELEMETRY', 'YARN_ENABLE_GLOBAL_CACHE',
]);
/** npm reads its configuration from `npm_config_*` in any case; these keys only choose output and prompts. */
const NPM_SETTINGS = new Set(['loglevel', 'yes', 'fund', 'audit', 'progress', 'color', 'update_notifier', 'update-notifier']);
/** A pager that shows the text as it is: `cat`, or none. */
const PAGERS = new Set(['PAGER', 'GIT_PAGER', 'MANPAGER']);
const NO_PAGER = new Set(['', 'cat']);

/** rustc flags that set lint levels, cfg names or code generation that runs nothing (`-C linker=`, `-C link-arg` stay out). */
const RUSTC_CODEGEN = new Set([
  'debuginfo', 'opt-level', 'target-cpu', 'target-feature', 'instrument-coverage', 'debug-assertions', 'overflow-checks', 'panic', 'strip',
  'codegen-units', 'lto', 'force-frame-pointers', 'embed-bitcode', 'relocation-model', 'split-debuginfo',
]);
/** go build flags that choose modes and counts (`-toolexec`, `-exec`, `-overlay`, `-modfile` stay out). */
const GO_FLAG = /^-(?:mod=\w+|race|v|trimpath|buildvcs=\w+|count=\d+|p=\d+|tags=[\w,.]*|cover|short)$/;

/**
 * Programs that run code from the workspace anyway (tests, conftest.py,
 * plugins named in project configuration, package.json scripts): a search
 * path into the workspace gives them nothing the agent could not already write there.
 */
const RUNS_WORKSPACE: Readonly<Record<string, ReadonlySet<string>>> = {
  PYTHONPATH: new Set(['pytest', 'py.test', 'coverage', 'tox', 'nox', 'mypy', 'pylint', 'behave', 'sphinx-build']),
  NODE_PATH: new Set(['jest', 'vitest', 'mocha', 'ava', 'npm', 'yarn', 'pnpm', 'eslint', 'prettier', 'ts-node', 'tsx']),
};
/** `python -m MODULE` for these runs the workspace's code (its tests, its config's plugins). */
const PYTHON_MODULES = new Set(['pytest', 'unittest', 'coverage', 'tox', 'nox', 'mypy', 'pylint']);
/** Runners whose `run` word runs the rest as a program (`uv run pytest`). */
const RUNNERS = new Set(['uv', 'poetry', 'pipenv', 'pdm', 'hatch', 'rye']);

/** Whether `a`, set before `words`, lets the command run nothing it would not run anyway. */
export function harmlessAssignment(a: Assignment, words: readonly Word[]): boolean {
  const value = a.value ?? { value: '', dynamic: false, text: '' };
  if (a.append) return false;
  if (SETTINGS.has(a.name)) return true;
  if (/^npm_config_/i.test(a.name)) return NPM_SETTINGS.has(a.name.slice('npm_config_'.length).toLowerCase());
  if (PAGERS.has(a.name)) return !value.dynamic && NO_PAGER.has(value.value);
  if (value.dynamic) return pathIntoWorkspace(a.name, value, words);
  if (a.name === 'RUSTFLAGS' || a.name === 'RUSTDOCFLAGS') return rustFlagsOnly(value.value);
  if (a.name === 'GOFLAGS') return value.value.split(/\s+/).filter(Boolean).every((f) => GO_FLAG.test(f));
  return pathIntoWorkspace(a.name, value, words);
}

/** `-D warnings`, `-Dwarnings`, `--cfg x`, `-C opt-level=3`: each flag with its value. */
function rustFlagsOnly(text: string): boolean {
  const parts = text.split(/\s+/).filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const m = /^(-[DWAF]|--cap-lints|--cfg|-C)(.*)$/.exec(p);
    if (!m) return false;
    const arg = m[2] !== '' ? m[2]!.replace(/^=/, '') : parts[++i];
    if (arg === undefined) return false;
    if (m[1] === '-C' && !RUSTC_CODEGEN.has(arg.split('=')[0] ?? '')) return false;
  }
  return true;
}

/**
 * PYTHONPATH / NODE_PATH whose entries all stay inside the workspace
 * (relative, no `..`; or the user's `$PWD`), before a program that runs the
 * workspace's code anyway.
 */
function pathIntoWorkspace(name: string, value: Word, words: readonly Word[]): boolean {
  const programs = RUNS_WORKSPACE[name];
  if (!programs || !runsWorkspace(name, programs, words)) return false;
  let text = value.value;
  if (value.dynamic) {
    // `$PWD` in an assignment is not split: it is the directory the command runs in (and reads its code from).
    if (!value.userVars) return false;
    text = value.text.replace(/^"(.*)"$/s, '$1').replace(/\$(?:PWD|\{PWD\})(?![A-Za-z0-9_])/g, '.');
    if (/[$`"'\\*?[{~]/.test(text)) return false;
  }
  return text.split(':').every((entry) => !entry.startsWith('/') && !entry.startsWith('~') && !entry.split('/').includes('..'));
}

function runsWorkspace(name: string, programs: ReadonlySet<string>, words: readonly Word[]): boolean {
  let rest = words;
  const first = (): string | undefined => (rest[0] && !rest[0].dynamic ? programName(rest[0].value) : undefined);
  if (RUNNERS.has(first() ?? '') && rest[1]?.value === 'run' && !rest[1].dynamic) rest = rest.slice(2);
  const prog = first();
  if (prog === undefined) return false;
  if (programs.has(prog)) return true;
  if (name === 'PYTHONPATH' && prog === 'python') {
    const m = rest.findIndex((w) => w.value === '-m');
    const mod = m > 0 ? rest[m + 1] : undefined;
    return mod !== undefined && !mod.dynamic && PYTHON_MODULES.has(mod.value);
  }
  return false;
}
