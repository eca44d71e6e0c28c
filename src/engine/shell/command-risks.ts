/**
 * What stategate knows about the arguments of common tools: the flags,
 * positional words and environment variables that make an allowed command
 * load or run code the command line does not show (`npm test
 * --script-shell=./x`, `pytest -p plugin`, `git -c core.pager=sh ...`).
 * Data only, one line of why each; command-args.ts reads commands with it,
 * and docs/enforcement.md lists it (test/unit/command-risks.test.ts keeps the
 * two equal).
 *
 * Entries match by leading words (docs/enforcement.md), so an entry allows these only
 * where it names them itself (`"npm test --script-shell=bash"`).
 */

export interface FlagRisk {
  /** Long spellings, without the leading dashes. */
  readonly long?: readonly string[];
  /** Short spellings: each character is one (`-p`). */
  readonly short?: string;
  /**
   * How the flag takes its value: `next` (`--f=v`, `--f v`, `-fv`, `-f v`),
   * `attached` (only `--f=v` / `-fv`; the flag alone is risky too), `none`
   * (the flag alone is risky).
   */
  readonly value: 'next' | 'attached' | 'none';
  /** Values that load nothing (built-in names); any other value is risky. */
  readonly safe?: (value: string) => boolean;
  /** The safe values in words, for the docs. */
  readonly safeText?: string;
  readonly why: string;
}

export interface PositionalRisk {
  /** What it looks like, for the docs and the reason. */
  readonly label: string;
  /** Only the positional word at this place (0 = the first) can be it. */
  readonly at?: number;
  /** Is the positional word at `index` risky, given the ones up to it? */
  readonly test: (positionals: readonly string[], index: number) => boolean;
  readonly why: string;
}

export interface Syntax {
  /**
   * What `--` does: `end` (only positional words follow), `scripts` (what
   * follows goes to a package script: read as a test runner's or linter's
   * arguments), `options` (options go on, as for yargs-based tools),
   * `operands` (options end, but the words after it are still read as
   * positional words: awk's program text may follow `--`).
   */
  readonly dashDash: 'end' | 'scripts' | 'options' | 'operands';
  /** Options end at the first positional word (the script: node, python). */
  readonly stopAtPositional?: boolean;
  /** Long options may be shortened to any prefix (npm, git's subcommands, GNU make). */
  readonly abbreviations?: boolean;
  /** Real options that are also prefixes of risky ones (`--global`, not `--globalconfig` shortened). */
  readonly realPrefixes?: readonly string[];
  /** How long names compare: exact; `_` = `-` (node); also any case (npm); also `-`/`_` dropped (setupFiles = setup-files). */
  readonly fold?: 'exact' | 'underscore' | 'npm' | 'loose';
  /**
   * What a word with one dash is: `cluster` (short letters, `-qp x`: the
   * default), `single` (one letter, the rest of the word its value), `long`
   * (a long name: `-toolexec` for Go, `-pl` for maven).
   */
  readonly shorts?: 'cluster' | 'single' | 'long';
  /** With `long` shorts: letters that take the rest of the word as their value (maven's `-Dkey=value`). */
  readonly attached?: string;
  /** How the docs write long options (Go's: `-toolexec`). */
  readonly longDash?: '-' | '--';
  /** Short options that take a value (not risky ones): the rest of a cluster, or the next word, is that value. */
  readonly shortWithValue?: string;
  /** Long options that take the next word as their value (so it is not read as a positional word). */
  readonly longWithValue?: readonly string[];
  /**
   * A first argument without a dash is letters each of its own (tar's old
   * style, `tar cIf ./x a.tar`: the letters' values are the next words in order).
   */
  readonly oldStyle?: boolean;
}

export interface ToolRisks {
  /** How reasons name it. */
  readonly tool: string;
  /** How the docs name it, when that says more. */
  readonly heading?: string;
  /** For the docs, instead of listing the flags (the script-arguments table repeats others). */
  readonly docs?: string;
  /** Command names (the last path segment of the first word) that select it. */
  readonly names: readonly string[];
  readonly syntax: Syntax;
  readonly flags: readonly FlagRisk[];
  readonly positionals?: readonly PositionalRisk[];
  /**
   * What the first positional word is: a subcommand with its own risks (git),
   * a program to run with the rest (npx), or a package manager's command
   * (a script, a program, or one of its own commands).
   */
  readonly first?: Subcommands | { readonly kind: 'program' } | PackageManager;
  /** A flag whose value names a program that reads the rest (`python -m pytest`). */
  readonly programFlag?: string;
  /** Reads its program from its input when no script is named (node, python), unless one of these options is given. */
  readonly stdinWithout?: readonly string[];
  /**
   * Runs shell commands whatever its arguments (an editor: `:!cmd`, commands
   * read from its input): denied under allowed_commands, whatever an entry names.
   */
  readonly always?: { readonly why: string; readonly fix: string };
}

export interface Subcommands {
  readonly kind: 'subcommands';
  readonly tables: Readonly<Record<string, ToolRisks>>;
}

export interface PackageManager {
  readonly kind: 'package-manager';
  /** Its commands that run a program named next (`npm exec`, `pnpm dlx`). */
  readonly launch: readonly string[];
  /** Its commands that run a script named next (`yarn run`). */
  readonly run: readonly string[];
  /** Its own commands, whose options are still its own (`pnpm install`). */
  readonly own: readonly string[];
  /**
   * Where a package script's arguments start: after `--` (npm reads its own
   * options everywhere else), or after the script's name (yarn, pnpm, bun:
   * any other first word is a script or a program of node_modules/.bin).
   */
  readonly scriptArgs: 'after-dash-dash' | 'after-name';
}

export interface EnvRisk {
  readonly names: RegExp;
  /** How the docs name it. */
  readonly label: string;
  /** The value is read as this tool's options (risky only if they are); else any value is risky. */
  readonly argsOf?: ToolRisks;
  /** The value is a comma-separated list of this flag's values (PYTHONWARNINGS as -W). */
  readonly listOf?: { readonly tool: string; readonly flag: string };
  readonly why: string;
}

const oneOf =
  (...values: string[]) =>
  (v: string): boolean =>
    values.includes(v);

/** git configuration keys that run nothing (compared lower-case; a trailing `.` is a whole section). */
const SAFE_GIT_KEYS = [
  'color.', 'advice.', 'user.name', 'user.email', 'core.quotepath', 'core.abbrev', 'core.autocrlf', 'core.safecrlf', 'core.eol', 'core.filemode', 'core.ignorecase',
  'core.longpaths', 'core.precomposeunicode', 'diff.noprefix', 'diff.mnemonicprefix', 'diff.renames', 'diff.algorithm', 'diff.context', 'diff.relative', 'merge.conflictstyle',
  'pull.rebase', 'pull.ff', 'push.default', 'push.autosetupremote', 'init.defaultbranch', 'column.ui', 'i18n.', 'gc.auto', 'maintenance.auto', 'fetch.prune', 'rebase.autosquash',
  'rebase.autostash', 'status.showuntrackedfiles', 'status.short', 'log.date', 'log.decorate', 'log.follow', 'format.pretty', 'commit.gpgsign', 'tag.gpgsign', 'protocol.version',
];
const safeGitKey = (setting: string): boolean => {
  const key = (setting.split('=')[0] ?? '').toLowerCase();
  // `credential.helper=` (empty) turns helpers off: commonly used, runs nothing.
  if (key === 'credential.helper' && setting === `${setting.split('=')[0]}=`) return true;
  return SAFE_GIT_KEYS.some((k) => (k.endsWith('.') ? key.startsWith(k) && key.length > k.length : key === k));
};

/** cargo `--config` settings that run nothing (a file path or any other key can: build.rustc-wrapper, target.*.runner, build.rustflags, [env]). */
const safeCargoConfig = (v: string): boolean =>
  /^(term\.[\w.-]+|build\.(jobs|incremental)|net\.(retry|offline)|profile\.[\w-]+\.(opt-level|debug|lto|codegen-units|panic|incremental|overflow-checks|strip|split-debuginfo|debug-assertions))\s*=/.test(v);

/** A Python warning filter (action:message:category:module:lineno) whose category needs no import. */
export const safeWarningFilter = (v: string): boolean => !(v.split(':')[2] ?? '').includes('.');

const STDIN_SCRIPT: PositionalRisk = { label: '`-` (as the script)', at: 0, test: ([v]) => v === '-', why: 'reads the program from its input' };

const MOCHA_REPORTERS = ['spec', 'dot', 'nyan', 'tap', 'landing', 'list', 'progress', 'json', 'json-stream', 'min', 'doc', 'markdown', 'xunit', 'html', 'base'];
const VITEST_REPORTERS = ['default', 'basic', 'verbose', 'dot', 'json', 'junit', 'tap', 'tap-flat', 'hanging-process', 'github-actions', 'blob', 'html', 'tree'];
const JEST_REPORTERS = ['default', 'summary', 'github-actions'];
const NODE_REPORTERS = ['spec', 'tap', 'dot', 'junit', 'lcov'];
const ESLINT_FORMATS = ['stylish', 'json', 'json-with-metadata', 'html', 'checkstyle', 'compact', 'jslint-xml', 'junit', 'tap', 'unix', 'visualstudio'];

/** npm options that are prefixes of the risky ones below. */
const NPM_REAL_PREFIXES = ['global', 'user', 'ca'];

const NPM_CONFIG: readonly FlagRisk[] = [
  { long: ['script-shell', 'shell'], value: 'next', why: 'runs every package script (and npm exec) with the program it names' },
  { long: ['node-options'], value: 'next', why: 'passes options such as --require to every node process npm starts' },
  { long: ['prefix'], short: 'C', value: 'next', why: "runs the scripts of another folder's package.json" },
  { long: ['userconfig', 'globalconfig'], value: 'next', why: 'reads an npmrc, which can set script-shell or node-options' },
  { long: ['call'], short: 'c', value: 'next', why: 'runs the shell command it gives (npm exec)' },
  { long: ['git', 'node-gyp', 'editor', 'browser', 'viewer'], value: 'next', why: 'names a program npm runs (for git dependencies, native builds, edit, docs, help)' },
  { long: ['init-module', 'onload-script'], value: 'next', why: 'a JavaScript file npm runs (init, npm 6 start-up)' },
];

const JEST: ToolRisks = {
  tool: 'jest',
  names: ['jest'],
  syntax: { dashDash: 'options', fold: 'loose' },
  flags: [
    { long: ['config'], short: 'c', value: 'next', why: 'a config file is code (or names code: setupFiles, transform, reporters)' },
    { long: ['setupFiles', 'setupFilesAfterEnv', 'globalSetup', 'globalTeardown'], value: 'next', why: 'modules run before or after the tests' },
    { long: ['testRunner', 'runner', 'transform', 'resolver', 'watchPlugins', 'snapshotResolver', 'testSequencer', 'testResultsProcessor', 'preset', 'projects'], value: 'next', why: 'modules (or projects with their own config) jest loads and runs' },
    { long: ['testEnvironment', 'env'], value: 'next', safe: oneOf('node', 'jsdom'), safeText: '`node`, `jsdom`', why: 'a test environment module jest loads' },
    { long: ['reporters'], value: 'next', safe: oneOf(...JEST_REPORTERS), safeText: JEST_REPORTERS.map((r) => `\`${r}\``).join(', '), why: 'a reporter module jest loads' },
  ],
};

const VITEST: ToolRisks = {
  tool: 'vitest',
  names: ['vitest'],
  syntax: { dashDash: 'options', fold: 'loose' },
  flags: [
    { long: ['config', 'root', 'workspace'], short: 'cr', value: 'next', why: 'a config file (or the folder it is found in) is code' },
    { long: ['setupFiles', 'globalSetup', 'coverage.customProviderModule'], value: 'next', why: 'modules run before the tests or as the coverage provider' },
    { long: ['reporter'], value: 'next', safe: oneOf(...VITEST_REPORTERS), safeText: 'built-in reporter names', why: 'a reporter module vitest loads' },
    { long: ['environment'], value: 'next', safe: oneOf('node', 'jsdom', 'happy-dom', 'edge-runtime'), safeText: '`node`, `jsdom`, `happy-dom`, `edge-runtime`', why: 'a test environment module vitest loads' },
    { long: ['pool'], value: 'next', safe: oneOf('threads', 'forks', 'vmThreads', 'vmForks'), safeText: '`threads`, `forks`, `vmThreads`, `vmForks`', why: 'a custom pool is a module vitest runs' },
  ],
};

const MOCHA: ToolRisks = {
  tool: 'mocha',
  names: ['mocha', '_mocha'],
  syntax: { dashDash: 'options', fold: 'loose' },
  flags: [
    { long: ['require', 'import', 'loader', 'experimental-loader'], short: 'r', value: 'next', why: 'loads a module before the tests' },
    { long: ['config', 'package'], value: 'next', why: 'a config file is code or names modules to require' },
    { long: ['node-option'], short: 'n', value: 'next', why: 'passes node options such as require=' },
    { long: ['reporter'], short: 'R', value: 'next', safe: oneOf(...MOCHA_REPORTERS), safeText: 'built-in reporter names', why: 'a reporter module (mocha also loads it from a file of that name)' },
    { long: ['ui'], value: 'next', safe: oneOf('bdd', 'tdd', 'qunit', 'exports'), safeText: '`bdd`, `tdd`, `qunit`, `exports`', why: 'an interface module mocha loads' },
  ],
};

const ESLINT: ToolRisks = {
  tool: 'eslint',
  names: ['eslint'],
  syntax: { dashDash: 'end', fold: 'exact' },
  flags: [
    { long: ['config'], short: 'c', value: 'next', why: 'a config file is code (flat config) or loads plugins' },
    { long: ['rulesdir', 'plugin', 'resolve-plugins-relative-to'], value: 'next', why: 'loads rules or plugins (code) from where it names' },
    { long: ['parser'], value: 'next', safe: oneOf('espree'), safeText: '`espree`', why: 'a parser module eslint loads' },
    { long: ['format'], short: 'f', value: 'next', safe: oneOf(...ESLINT_FORMATS), safeText: 'built-in formatter names', why: 'a formatter module eslint loads' },
    { long: ['inspect-config'], value: 'none', why: 'downloads and starts the config inspector' },
  ],
};

/**
 * What follows `--` after a package script (`npm test -- ...`), or the words
 * after a script name for yarn/pnpm/bun: the script is unknown, so every test
 * runner's and linter's risky flags count, each value safe only where it is
 * safe for all of them. Short letters that mean something harmless in a
 * common runner (`-f`: jest's onlyFailures) are left out.
 */
const SCRIPT_ARGS: ToolRisks = {
  tool: 'the package script (a test runner or linter)',
  heading: 'a package script’s arguments (`npm test -- ...`, `yarn test ...`)',
  docs: 'every flag of jest, vitest, mocha and eslint below (a value passes only where it is safe for all of them; `-f` is left out: jest reads it as --onlyFailures)',
  names: [],
  syntax: { dashDash: 'options', fold: 'loose' },
  flags: [JEST, VITEST, MOCHA, ESLINT].flatMap((t) => t.flags.map((f) => (f.short === 'f' ? { ...f, short: undefined } : f)) as FlagRisk[]),
};

const PYTEST: ToolRisks = {
  tool: 'pytest',
  heading: 'pytest (also `python -m pytest`)',
  names: ['pytest', 'py.test'],
  syntax: { dashDash: 'end', fold: 'exact', shortWithValue: 'kmnr', longWithValue: ['tb', 'maxfail', 'rootdir', 'junitxml', 'durations', 'deselect', 'ignore', 'ignore-glob', 'import-mode', 'log-level', 'cov', 'cov-report', 'dist', 'confcutdir'] },
  flags: [
    { short: 'p', value: 'next', safe: (v) => v.startsWith('no:'), safeText: '`no:NAME` (turns a plugin off)', why: 'imports the module it names as a plugin (a file in the project counts)' },
    { long: ['pdbcls'], value: 'next', why: 'imports the debugger class it names' },
    { long: ['pdb', 'trace'], value: 'none', why: 'stops in the Python debugger, which runs the Python code its input sends (`pytest --pdb <<< "import os; os.system(...)"`)' },
    { long: ['config-file', 'inifile'], short: 'c', value: 'next', why: 'reads another ini file, whose addopts can load plugins' },
    { long: ['override-ini'], short: 'o', value: 'next', safe: (v) => !/^\s*(addopts|pythonpath)\s*=/i.test(v), safeText: 'keys other than `addopts`, `pythonpath`', why: 'addopts adds options such as -p; pythonpath changes where modules are imported from' },
    { long: ['pythonwarnings'], short: 'W', value: 'next', safe: safeWarningFilter, safeText: 'filters whose category is a built-in name', why: 'a warning category with a module path imports that module' },
    { long: ['basetemp'], value: 'next', why: 'pytest deletes the folder it names before the run' },
    { long: ['tx', 'rsyncdir'], value: 'next', why: 'starts interpreters or commands through execnet specs (pytest-xdist)' },
    { long: ['cov-config'], value: 'next', why: 'a coverage config whose plugins setting imports modules' },
  ],
};

const PYTHON: ToolRisks = {
  tool: 'python',
  names: ['python', 'python3', 'pypy', 'pypy3', 'py'],
  syntax: { dashDash: 'end', stopAtPositional: true, fold: 'exact', shortWithValue: 'X', longWithValue: ['check-hash-based-pycs'] },
  flags: [
    { short: 'c', value: 'next', why: 'runs the Python code given on the command line' },
    { short: 'W', value: 'next', safe: safeWarningFilter, safeText: 'filters whose category is a built-in name', why: 'a warning category with a module path imports that module' },
    { short: 'i', value: 'none', why: 'reads more code from its input after the script' },
  ],
  positionals: [STDIN_SCRIPT],
  programFlag: 'm',
  stdinWithout: ['-c', '-V', '--version', '-h', '--help', '-VV'],
};

const NODE: ToolRisks = {
  tool: 'node',
  names: ['node', 'nodejs'],
  syntax: {
    dashDash: 'end',
    stopAtPositional: true,
    fold: 'underscore',
    shortWithValue: 'C',
    longWithValue: [
      'conditions', 'input-type', 'title', 'inspect-port', 'debug-port', 'disable-warning', 'dns-result-order', 'heapsnapshot-signal', 'icu-data-dir', 'redirect-warnings',
      'report-filename', 'report-signal', 'test-concurrency', 'test-name-pattern', 'test-skip-pattern', 'test-reporter-destination', 'test-shard', 'test-timeout', 'trace-event-categories',
      'trace-event-file-pattern', 'unhandled-rejections', 'watch-path', 'cpu-prof-dir', 'cpu-prof-name', 'heap-prof-dir', 'heap-prof-name', 'diagnostic-dir', 'disable-proto',
      'max-http-header-size', 'secure-heap', 'secure-heap-min', 'tls-cipher-list', 'tls-keylog', 'use-largepages', 'v8-pool-size', 'localstorage-file', 'allow-fs-read', 'allow-fs-write',
    ],
  },
  flags: [
    { long: ['require'], short: 'r', value: 'next', why: 'loads a module before the program' },
    { long: ['import', 'loader', 'experimental-loader'], value: 'next', why: 'loads a module before the program (a loader also rewrites every import)' },
    { long: ['eval', 'print'], short: 'ep', value: 'next', why: 'runs the JavaScript given on the command line' },
    { long: ['env-file', 'env-file-if-exists'], value: 'next', why: 'reads variables such as NODE_OPTIONS from a file' },
    { long: ['test-reporter'], value: 'next', safe: oneOf(...NODE_REPORTERS), safeText: NODE_REPORTERS.map((r) => `\`${r}\``).join(', '), why: 'a reporter module node loads' },
    { long: ['experimental-config-file', 'experimental-policy', 'openssl-config', 'snapshot-blob', 'test-global-setup'], value: 'next', why: 'a file that names modules or libraries to load, or code to run' },
    { long: ['experimental-default-config-file'], value: 'none', why: 'reads node.config.json, which can name modules to load' },
    { long: ['inspect', 'inspect-brk', 'inspect-wait'], value: 'attached', why: 'opens a debugger port through which any code can be run' },
    { long: ['interactive'], short: 'i', value: 'none', why: 'reads code from its input' },
  ],
  positionals: [STDIN_SCRIPT],
  stdinWithout: ['-e', '--eval', '-p', '--print', '-v', '--version', '-h', '--help', '--test', '--run', '-c', '--check', '--v8-options', '--watch'],
};

const NPM: ToolRisks = {
  tool: 'npm',
  names: ['npm'],
  syntax: { dashDash: 'scripts', abbreviations: true, realPrefixes: NPM_REAL_PREFIXES, fold: 'npm', shortWithValue: 'w', longWithValue: ['workspace', 'loglevel', 'tag', 'registry'] },
  flags: [...NPM_CONFIG, { long: ['package'], value: 'next', why: 'installs the package it names and runs its program (npm exec)' }],
  first: { kind: 'package-manager', launch: ['exec', 'x'], run: [], own: [], scriptArgs: 'after-dash-dash' },
};

const NPX: ToolRisks = {
  tool: 'npx',
  heading: 'npx, pnpx, bunx (and `npm exec`)',
  names: ['npx', 'pnpx', 'bunx'],
  syntax: { dashDash: 'end', abbreviations: true, realPrefixes: NPM_REAL_PREFIXES, fold: 'npm', longWithValue: ['workspace', 'loglevel', 'registry'] },
  flags: [...NPM_CONFIG, { long: ['package'], short: 'p', value: 'next', why: 'installs the package it names and runs its program' }],
  first: { kind: 'program' },
};

/** Options of yarn, pnpm and bun before the script or command. */
const PACKAGE_MANAGER_FLAGS: readonly FlagRisk[] = [
  ...NPM_CONFIG.filter((f) => f.short !== 'c'),
  { long: ['cwd', 'dir', 'use-yarnrc'], value: 'next', why: "runs the scripts of another folder's package.json, or reads another yarnrc" },
];

const YARN: ToolRisks = {
  tool: 'yarn/pnpm',
  heading: 'yarn, pnpm',
  names: ['yarn', 'pnpm'],
  syntax: { dashDash: 'end', fold: 'npm', longWithValue: ['filter', 'workspace'] },
  flags: PACKAGE_MANAGER_FLAGS,
  first: { kind: 'package-manager', launch: ['exec', 'dlx'], run: ['run', 'run-script'], own: ['install', 'i', 'add', 'remove', 'rm', 'update', 'up', 'upgrade', 'ci', 'why', 'list', 'ls', 'outdated', 'audit', 'info', 'config'], scriptArgs: 'after-name' },
};

const BUN: ToolRisks = {
  tool: 'bun',
  names: ['bun'],
  syntax: { dashDash: 'end', fold: 'exact' },
  flags: [
    ...PACKAGE_MANAGER_FLAGS,
    { long: ['preload', 'require', 'import'], short: 'r', value: 'next', why: 'loads a module before the program' },
    { long: ['config'], short: 'c', value: 'next', why: 'a bunfig.toml can preload modules' },
    { long: ['eval', 'print'], short: 'ep', value: 'next', why: 'runs the JavaScript given on the command line' },
    { long: ['env-file'], value: 'next', why: 'reads variables such as NODE_OPTIONS from a file' },
  ],
  first: { kind: 'package-manager', launch: ['x'], run: ['run'], own: ['install', 'i', 'add', 'remove', 'rm', 'update', 'upgrade', 'pm', 'outdated', 'test', 'build', 'init'], scriptArgs: 'after-name' },
};

const CARGO: ToolRisks = {
  tool: 'cargo',
  names: ['cargo'],
  syntax: { dashDash: 'end', fold: 'exact', shortWithValue: 'pjFZ', longWithValue: ['package', 'jobs', 'features', 'target', 'target-dir', 'bin', 'example', 'test', 'bench', 'profile', 'color', 'message-format', 'exclude'] },
  flags: [
    { long: ['config'], value: 'next', safe: safeCargoConfig, safeText: '`term.*`, `build.jobs`, `build.incremental`, `net.retry`, `net.offline`, `profile.*` settings other than flags', why: 'sets configuration (build.rustc-wrapper, target.*.runner, build.rustflags, [env]) or reads a config file' },
    { long: ['manifest-path'], short: 'C', value: 'next', why: "builds another crate (its build.rs and tests are code)" },
  ],
  positionals: [{ label: '`+TOOLCHAIN`', at: 0, test: ([v = '']) => v.startsWith('+') && !/^\+(stable|beta|nightly)(-[\w.-]+)?$|^\+\d+\.\d+(\.\d+)?$/.test(v), why: 'a toolchain that is not a release channel can be a path to any rustc' }],
};

const GO: ToolRisks = {
  tool: 'go',
  names: ['go'],
  syntax: { dashDash: 'end', fold: 'exact', shorts: 'long', longDash: '-', longWithValue: ['run', 'skip', 'bench', 'count', 'timeout', 'tags', 'p', 'parallel', 'cpu', 'o', 'mod', 'coverprofile', 'covermode', 'coverpkg', 'gcflags', 'asmflags', 'buildmode', 'trimpath'] },
  flags: [
    { long: ['toolexec'], value: 'next', why: 'runs every compiler and linker invocation through the program it names' },
    { long: ['exec'], value: 'next', why: 'runs the test or program binary through the program it names' },
    { long: ['overlay', 'modfile'], value: 'next', why: 'replaces source files or go.mod (whose replace directives swap in other code)' },
    { long: ['vettool'], value: 'next', why: 'the program go vet runs as its analyser' },
    { long: ['C'], value: 'next', why: "runs go in another folder (another module's code)" },
    { long: ['ldflags'], value: 'next', safe: (v) => !v.includes('-ext'), safeText: 'flags without `-extld`, `-extldflags`, `-extar`', why: 'they name the external linker go runs, or its flags' },
  ],
};

const MAKE: ToolRisks = {
  tool: 'make',
  names: ['make', 'gmake'],
  // After `--` make still takes VAR=value words as variables.
  syntax: { dashDash: 'options', abbreviations: true, fold: 'exact', shortWithValue: 'jloOW', longWithValue: ['jobs', 'load-average', 'old-file', 'what-if', 'assume-old', 'assume-new', 'new-file', 'output-sync'] },
  flags: [
    { long: ['file', 'makefile'], short: 'f', value: 'next', why: 'reads another makefile (its recipes are shell commands)' },
    { long: ['directory'], short: 'C', value: 'next', why: 'runs the makefile of another folder' },
    { long: ['eval'], short: 'E', value: 'next', why: 'evaluates the make text it gives ($(shell ...) runs commands)' },
    { long: ['include-dir'], short: 'I', value: 'next', why: 'where include directives find makefiles' },
    { long: ['environment-overrides'], short: 'e', value: 'none', why: "lets environment variables override the makefile's (any program a recipe runs)" },
    { long: ['touch'], short: 't', value: 'none', why: 'touches the file of every target instead of building it (writes files the makefile names)' },
  ],
  // A number or a yes/no (`V=1`, `DEBUG=false`) names no program and no file: it runs nothing the makefile would not.
  positionals: [{ label: '`VAR=value`', test: (ps, i) => /^[^-=\s][^=\s]*=/.test(ps[i] ?? '') && !/^[A-Za-z_][A-Za-z0-9_]*=(\d+|true|false|yes|no|on|off)$/i.test(ps[i] ?? ''), why: 'overrides a makefile variable (SHELL, or any program a recipe runs)' }],
};

const GIT_CONFIG_FLAG: FlagRisk = {
  short: 'c',
  long: ['config'],
  value: 'next',
  safe: safeGitKey,
  safeText: 'keys that run nothing (`color.*`, `user.name`, `core.quotepath`, ...)',
  why: 'sets configuration, and many keys run programs (core.pager, core.sshCommand, core.fsmonitor, alias.*=!cmd, ...)',
};
const gitSub = (tool: string, flags: readonly FlagRisk[], positionals?: readonly PositionalRisk[]): ToolRisks => ({
  tool: `git ${tool}`,
  names: [],
  syntax: { dashDash: 'end', abbreviations: true, fold: 'exact' },
  flags,
  ...(positionals ? { positionals } : {}),
});
/** `git config KEY VALUE` / `git config set KEY VALUE` with a key that can run something (reading is free). */
function settingRiskyGitKey(ps: readonly string[], i: number): boolean {
  if (ps[0] === 'set') return i === 2 && !safeGitKey(ps[1] ?? '');
  if (/^(get|get-all|get-regexp|list|unset|unset-all|rename-section|remove-section|edit)$/.test(ps[0] ?? '')) return false;
  return i === 1 && !safeGitKey(ps[0] ?? '');
}
const UPLOAD_PACK: FlagRisk = { long: ['upload-pack'], value: 'next', why: 'the program git runs to fetch (a local command for local paths)' };
const FILTERS = ['env-filter', 'tree-filter', 'index-filter', 'parent-filter', 'msg-filter', 'commit-filter', 'tag-name-filter', 'setup'];

const GIT: ToolRisks = {
  tool: 'git',
  names: ['git'],
  // Options before the subcommand; `-c` takes the next word only.
  syntax: { dashDash: 'end', fold: 'exact', longWithValue: ['work-tree', 'namespace', 'super-prefix', 'attr-source'], shortWithValue: 'C' },
  flags: [
    { ...GIT_CONFIG_FLAG, long: [] },
    { long: ['config-env'], value: 'next', safe: safeGitKey, safeText: 'keys that run nothing', why: 'sets configuration from a variable (see -c)' },
    { long: ['exec-path'], value: 'attached', safe: (v) => v === '', safeText: 'no value (prints the folder)', why: "runs git's commands from the folder it names" },
    { long: ['git-dir'], value: 'next', why: 'reads the configuration of the repository it names (core.fsmonitor, core.pager and hooks there run programs)' },
  ],
  first: {
    kind: 'subcommands',
    tables: {
      clone: gitSub('clone', [{ ...UPLOAD_PACK, short: 'u' }, { long: ['template'], value: 'next', why: 'copies hooks from the folder it names, which git then runs' }, GIT_CONFIG_FLAG]),
      fetch: gitSub('fetch', [UPLOAD_PACK]),
      pull: gitSub('pull', [UPLOAD_PACK]),
      'ls-remote': gitSub('ls-remote', [UPLOAD_PACK]),
      push: gitSub('push', [{ long: ['receive-pack', 'exec'], value: 'next', why: 'the program git runs to push (a local command for local paths)' }]),
      archive: gitSub('archive', [{ long: ['exec'], value: 'next', why: 'the program git runs for --remote' }]),
      rebase: gitSub('rebase', [{ long: ['exec'], short: 'x', value: 'next', why: 'runs the shell command it gives after each commit' }]),
      difftool: gitSub('difftool', [{ long: ['extcmd'], short: 'x', value: 'next', why: 'runs the command it gives as the diff tool' }]),
      grep: gitSub('grep', [{ long: ['open-files-in-pager'], short: 'O', value: 'attached', why: 'opens the matches in a program (the one it names)' }]),
      'filter-branch': gitSub('filter-branch', [{ long: FILTERS, value: 'next', why: 'shell commands run for every commit' }]),
      'send-email': gitSub('send-email', [{ long: ['smtp-server', 'sendmail-cmd', 'to-cmd', 'cc-cmd', 'header-cmd'], value: 'next', why: 'names a program git runs' }]),
      bisect: gitSub('bisect', [], [{ label: '`run`', at: 0, test: ([v]) => v === 'run', why: 'runs the command that follows at every step' }]),
      submodule: gitSub('submodule', [], [{ label: '`foreach`', test: (ps, i) => ps[i] === 'foreach', why: 'runs the command that follows in every submodule' }]),
      config: gitSub('config', [], [{ label: '`KEY VALUE` (setting a key)', test: settingRiskyGitKey, why: 'writes configuration, and many keys run programs (core.pager, alias.*, ...)' }]),
    },
  },
};

const MAVEN: ToolRisks = {
  tool: 'mvn',
  names: ['mvn', 'mvnw', 'mvnd'],
    // Maven's short options are words (`-pl`, `-rf`, `-amd`), and `-Dkey=value` carries its value.
  syntax: {
    dashDash: 'end',
    fold: 'exact',
    shorts: 'long',
    attached: 'D',
    longWithValue: ['projects', 'pl', 'resume-from', 'rf', 'threads', 'T', 'activate-profiles', 'P', 'log-file', 'l', 'builder', 'b', 'settings', 's', 'global-settings', 'gs', 'toolchains', 't', 'gt'],
  },
  flags: [
    { long: ['file', 'f'], value: 'next', why: 'builds another project (its plugins run code)' },
    { long: ['define', 'D'], value: 'next', safe: (v) => !/^(maven\.ext\.class\.path|classworlds\.conf|maven\.home)=?/.test(v), safeText: 'properties other than `maven.ext.class.path`, `classworlds.conf`, `maven.home`', why: 'loads extension jars into maven' },
  ],
  positionals: [
    {
      label: '`exec:*`, `antrun:*`, `GROUP:ARTIFACT:VERSION:GOAL`',
      test: (ps, i) => /^(exec|antrun|groovy|gmavenplus|gplus|jshell|scripting):/.test(ps[i] ?? '') || (ps[i]?.match(/:/g)?.length ?? 0) >= 2,
      why: 'runs a plugin goal that runs any program, or a plugin fetched by its coordinates',
    },
  ],
};

const GRADLE: ToolRisks = {
  tool: 'gradle',
  names: ['gradle', 'gradlew'],
  syntax: { dashDash: 'end', fold: 'exact', shorts: 'single', longWithValue: ['exclude-task', 'max-workers', 'console', 'warning-mode', 'priority'], shortWithValue: 'xP' },
  flags: [
    { long: ['init-script'], short: 'I', value: 'next', why: 'runs the script it names before the build' },
    { long: ['build-file', 'settings-file', 'project-dir', 'include-build'], short: 'bcp', value: 'next', why: 'another build or settings script (code) runs' },
    { long: ['gradle-user-home'], short: 'g', value: 'next', why: 'init scripts in its init.d folder run before the build' },
    { long: ['system-prop'], short: 'D', value: 'next', safe: (v) => !/^(org\.gradle\.(java\.home|jvmargs)|gradle\.user\.home)=?/.test(v), safeText: 'properties other than `org.gradle.java.home`, `org.gradle.jvmargs`, `gradle.user.home`', why: 'names the Java that runs the build, its options (-javaagent) or the user home' },
  ],
};

/**
 * An awk program that runs nothing and writes nothing: no `system()`, no
 * pipe (`print | "cmd"`, `"cmd" | getline`, gawk's `|&`), no `@load` /
 * `@include`, no `print > FILE` (a `>` after print or printf in the same
 * statement; a comparison there needs parentheses, `print (a > b)`, and is
 * read as a write too: fail closed).
 */
export const safeAwkProgram = (v: string): boolean => {
  const code = awkCode(v);
  return !/\bsystem\s*\(/.test(code) && !/(?<!\|)\|(?!\|)/.test(code) && !code.includes('@') && !/\bprintf?\b[^;{}\n]*>/.test(code);
};

/**
 * An awk program with its strings, regular expressions and comments emptied,
 * so `/a|b/` and `"x > y"` are not read as a pipe or a redirect. A `/` starts
 * a regular expression only where an operand cannot stand before it (start,
 * after `~ ( , ! { } ; & | ? : =` or a newline); elsewhere it divides and the
 * text after it stays code. An unclosed string ends at the line's end.
 */
function awkCode(v: string): string {
  let out = '';
  let prev = '';
  const skip = (from: number, end: string): number => {
    let j = from;
    while (j < v.length && v[j] !== end && v[j] !== '\n') j += v[j] === '\\' ? 2 : 1;
    return j;
  };
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '"') {
      i = skip(i + 1, '"');
      out += '""';
      prev = '"';
    } else if (c === '/' && (prev === '' || '~(,!{};&|?:=\n'.includes(prev))) {
      i = skip(i + 1, '/');
      out += '//';
      prev = '/';
    } else if (c === '#') {
      i = skip(i + 1, '\n') - 1;
    } else {
      out += c;
      if (c === '\n' || !/\s/.test(c)) prev = c;
    }
  }
  return out;
}

const AWK: ToolRisks = {
  tool: 'awk',
  heading: 'awk (gawk, mawk)',
  names: ['awk', 'gawk', 'mawk', 'nawk', 'original-awk'],
  syntax: { dashDash: 'operands', stopAtPositional: true, abbreviations: true, fold: 'exact', shortWithValue: 'vF', longWithValue: ['assign', 'field-separator'] },
  flags: [
    { long: ['file', 'exec', 'include'], short: 'fEi', value: 'next', why: 'runs the awk program in the file it names (system() and pipes in it run commands)' },
    { long: ['load'], short: 'l', value: 'next', why: 'loads the shared library it names into gawk' },
    { long: ['source'], short: 'e', value: 'next', safe: safeAwkProgram, safeText: 'programs without `system(`, `|`, `@`, `print >`', why: 'awk program text that runs commands or writes files' },
    { long: ['profile', 'pretty-print', 'dump-variables'], short: 'pod', value: 'attached', why: 'writes the file it names (gawk; by default awkprof.out, awkvars.out)' },
    { long: ['debug'], short: 'D', value: 'attached', why: 'starts the gawk debugger, which reads commands from its input' },
    { short: 'W', value: 'next', safe: (v) => /^(version|v|help|usage|interactive|i|posix_space|traditional|posix|lint|sandbox)$/.test(v), safeText: '`version`, `help`, `usage`, `interactive`, `posix_space`, `traditional`, `posix`, `lint`, `sandbox`', why: 'mawk and gawk options (`-W exec FILE` runs a program file)' },
  ],
  positionals: [{ label: 'the program', at: 0, test: ([v = '']) => !safeAwkProgram(v), why: 'runs commands (`system()`, `print | "cmd"`, `"cmd" | getline`), loads code (`@load`, `@include`) or writes files (`print > FILE`)' }],
};

/** tar's `-f ARCHIVE`: `host:path` (a colon before any slash) is a remote archive, reached by running rsh/ssh. */
const localArchive = (v: string): boolean => !/^[^/]*:/.test(v);

const TAR: ToolRisks = {
  tool: 'tar',
  names: ['tar', 'gtar', 'bsdtar'],
  syntax: {
    dashDash: 'end',
    abbreviations: true,
    fold: 'exact',
    oldStyle: true,
    shortWithValue: 'CTXbHVgKLN',
    longWithValue: ['directory', 'files-from', 'exclude-from', 'blocking-factor', 'format', 'label', 'listed-incremental', 'starting-file', 'newer', 'tape-length', 'exclude', 'transform', 'xform', 'owner', 'group', 'mode', 'mtime', 'suffix', 'strip-components', 'record-size'],
  },
  flags: [
    { long: ['to-command'], value: 'next', why: 'runs the command it gives for every file it extracts' },
    { long: ['use-compress-program'], short: 'I', value: 'next', why: 'runs the program it names to compress or uncompress the archive' },
    { long: ['checkpoint-action'], value: 'next', safe: (v) => !v.startsWith('exec'), safeText: 'actions other than `exec=`', why: '`exec=COMMAND` runs the command at every checkpoint' },
    { long: ['info-script', 'new-volume-script'], short: 'F', value: 'next', why: 'runs the script it names at the end of each volume' },
    { long: ['rsh-command', 'rmt-command'], value: 'next', why: 'the program tar runs to reach a remote archive' },
    { long: ['file'], short: 'f', value: 'next', safe: localArchive, safeText: 'local paths (no `host:` in front)', why: 'an archive named `host:path` is reached by running rsh or ssh' },
    { long: ['index-file'], value: 'next', why: 'writes the verbose listing to the file it names' },
  ],
};

const RSYNC: ToolRisks = {
  tool: 'rsync',
  names: ['rsync'],
  syntax: { dashDash: 'end', fold: 'exact', shortWithValue: 'fTBM', longWithValue: ['filter', 'temp-dir', 'block-size', 'exclude', 'include', 'exclude-from', 'include-from', 'files-from', 'partial-dir', 'backup-dir', 'suffix', 'chmod', 'compare-dest', 'copy-dest', 'link-dest', 'log-file', 'write-batch', 'only-write-batch', 'read-batch', 'timeout', 'bwlimit'] },
  flags: [
    { long: ['rsh'], short: 'e', value: 'next', why: 'the program rsync runs to reach the other side (any local command)' },
    { long: ['rsync-path'], value: 'next', why: 'the command rsync runs on the other side (a local one for local copies)' },
    { long: ['config', 'daemon'], value: 'next', why: 'runs an rsync daemon whose config can run programs (pre-xfer exec)' },
  ],
};

const ZIP: ToolRisks = {
  tool: 'zip',
  names: ['zip'],
  syntax: { dashDash: 'end', fold: 'exact', shortWithValue: 'bnxiO', longWithValue: ['out', 'temp-path', 'suffixes', 'exclude', 'include'] },
  flags: [
    { long: ['test'], short: 'T', value: 'none', why: 'tests the archive by running a command (`-TT CMD` names it)' },
    { long: ['unzip-command'], value: 'next', why: 'the command zip runs to test the archive' },
  ],
};

const LESS: ToolRisks = {
  tool: 'less',
  heading: 'less, more',
  names: ['less', 'more', 'most', 'pg'],
  syntax: { dashDash: 'end', abbreviations: true, fold: 'exact', shortWithValue: 'bhjpPtTxyz#', longWithValue: ['buffers', 'max-back-scroll', 'shift', 'pattern', 'prompt', 'tag', 'tag-file', 'tabs', 'window', 'max-forw-scroll'] },
  flags: [
    { long: ['lesskey-file', 'lesskey-src', 'lesskey-content'], short: 'k', value: 'next', why: 'a key file can set LESSOPEN and bind keys to shell commands' },
    { long: ['log-file', 'LOG-FILE'], short: 'oO', value: 'next', why: 'copies its input to the file it names (a write)' },
  ],
  positionals: [
    {
      label: '`+COMMAND` other than `+G`, `+F`, `+NUMBER`, `+/PATTERN`',
      test: (ps, i) => (ps[i] ?? '').startsWith('+') && !/^\+(\d*[GgFpP%]?|\/[^!|]*)$/.test(ps[i] ?? ''),
      why: 'runs a less command at start: `!cmd` and `|` run shell commands, `s` writes a file, `v` starts an editor',
    },
  ],
};

const MAN: ToolRisks = {
  tool: 'man',
  names: ['man'],
  syntax: { dashDash: 'end', abbreviations: true, fold: 'exact', shortWithValue: 'MSsLmeRE', longWithValue: ['manpath', 'sections', 'systems', 'locale', 'extension', 'recode', 'encoding'] },
  flags: [
    { long: ['pager'], short: 'P', value: 'next', why: 'the pager man runs (any program)' },
    { long: ['config-file'], short: 'C', value: 'next', why: 'a man configuration can name the programs man runs' },
    { long: ['html'], short: 'H', value: 'attached', why: 'opens the page in the browser it names (or $BROWSER)' },
    { long: ['preprocessor'], short: 'p', value: 'next', why: 'the preprocessors man runs' },
    { long: ['gxditview'], short: 'X', value: 'attached', why: 'starts a viewer program' },
  ],
};

const SPLIT: ToolRisks = {
  tool: 'split',
  names: ['split'],
  syntax: { dashDash: 'end', abbreviations: true, fold: 'exact', shortWithValue: 'abClnt', longWithValue: ['suffix-length', 'bytes', 'line-bytes', 'lines', 'number', 'separator', 'additional-suffix', 'numeric-suffixes', 'hex-suffixes'] },
  flags: [{ long: ['filter'], value: 'next', why: 'writes each piece to the shell command it gives (`--filter="sh -c ..."`)' }],
};

const INSTALL: ToolRisks = {
  tool: 'install',
  names: ['install'],
  syntax: { dashDash: 'end', abbreviations: true, fold: 'exact', shortWithValue: 'gmotS', longWithValue: ['group', 'mode', 'owner', 'target-directory', 'suffix'] },
  flags: [{ long: ['strip-program'], value: 'next', why: 'the program install runs to strip what it installs' }],
};

/** ssh options that name a local command or another configuration (compared lower-case, before `=` or a blank). */
const safeSshOption = (v: string): boolean => !/^\s*(proxycommand|localcommand|permitlocalcommand|knownhostscommand|include|match|controlpath|proxyusefdpass|identityagent|pkcs11provider|securitykeyprovider|sshaskpass)\b/i.test(v);

const SSH: ToolRisks = {
  tool: 'ssh',
  heading: 'ssh, scp, sftp',
  names: ['ssh', 'scp', 'sftp'],
  syntax: { dashDash: 'end', fold: 'exact', shortWithValue: 'BbcDEeIiJLlmOpPQRWwX' },
  flags: [
    { short: 'o', value: 'next', safe: safeSshOption, safeText: 'options other than ProxyCommand, LocalCommand, KnownHostsCommand, Include, Match, ...', why: 'an option that runs a local command (ProxyCommand, LocalCommand) or reads other configuration' },
    { short: 'F', value: 'next', why: 'a configuration file can name local commands (ProxyCommand)' },
    { short: 'S', value: 'next', safe: () => false, why: 'scp and sftp run the program it names as ssh (for ssh: a control socket, which also reaches other sessions)' },
  ],
};

const PERL: ToolRisks = {
  tool: 'perl',
  names: ['perl'],
  syntax: { dashDash: 'end', stopAtPositional: true, fold: 'exact', shortWithValue: 'lCD0' },
  flags: [
    { short: 'eE', value: 'next', why: 'runs the Perl code given on the command line' },
    { short: 'MmI', value: 'next', why: 'loads a module (or adds where modules are loaded from) before the script' },
    { short: 'd', value: 'attached', why: 'runs the script under a debugger (`-d:Module` loads a module), which reads commands from its input' },
    { short: 'x', value: 'attached', why: 'reads the program from inside another file' },
  ],
  positionals: [STDIN_SCRIPT],
  stdinWithout: ['-e', '-E', '-v', '-V', '-h', '-c'],
};

const RUBY: ToolRisks = {
  tool: 'ruby',
  names: ['ruby'],
  syntax: { dashDash: 'end', stopAtPositional: true, fold: 'exact', shortWithValue: 'CEFKT0' },
  flags: [
    { short: 'e', value: 'next', why: 'runs the Ruby code given on the command line' },
    { short: 'rI', long: ['require'], value: 'next', why: 'loads a library (or adds where libraries are loaded from) before the script' },
    { short: 'x', value: 'attached', why: 'reads the program from inside another file' },
  ],
  positionals: [STDIN_SCRIPT],
  stdinWithout: ['-e', '-v', '--version', '-h', '--help', '-c'],
};

const editor = (tool: string, names: string[]): ToolRisks => ({
  tool,
  names,
  syntax: { dashDash: 'end', fold: 'exact' },
  flags: [],
  always: {
    why: `${tool} runs any shell command it is told to (\`:!cmd\`, \`!cmd\`, commands given with -c or read from its input)`,
    fix: 'an editor cannot be allowed under allowed_commands; let the agent use the Edit and Write tools',
  },
});
const EDITORS: ToolRisks[] = [
  editor('vim', ['vim', 'vi', 'nvim', 'view', 'vimdiff', 'rvim', 'ex', 'gvim']),
  editor('ed', ['ed', 'red']),
  editor('nano', ['nano', 'pico']),
  editor('emacs', ['emacs', 'emacsclient']),
  editor('joe, mcedit, micro', ['joe', 'mcedit', 'micro']),
];

/** Every tool stategate reads the arguments of, in the order the docs list them. */
export const TOOL_RISKS: readonly ToolRisks[] = [NPM, NPX, YARN, BUN, SCRIPT_ARGS, JEST, VITEST, MOCHA, ESLINT, NODE, PYTHON, PYTEST, CARGO, GO, MAKE, GIT, MAVEN, GRADLE, AWK, TAR, RSYNC, ZIP, SPLIT, INSTALL, SSH, PERL, RUBY, LESS, MAN, ...EDITORS];

/** `python -m NAME`: the modules whose arguments are known. */
export const PYTHON_MODULES: Readonly<Record<string, ToolRisks>> = { pytest: PYTEST };

export { SCRIPT_ARGS };

/**
 * Assignments that make a command load or run other code. The first match
 * wins; names not listed here fall back to commands.ts's list
 * (PATH, IFS, HOME, EDITOR, CC, ...), which has no way to read a value.
 */
export const ENV_RISKS: readonly EnvRisk[] = [
  { names: /^NODE_OPTIONS$/, label: 'NODE_OPTIONS', argsOf: NODE, why: 'node reads options from it (--require, --import, --loader)' },
  { names: /^PYTEST_ADDOPTS$/, label: 'PYTEST_ADDOPTS', argsOf: PYTEST, why: 'pytest reads options from it (-p, -o addopts=...)' },
  { names: /^PYTHONWARNINGS$/, label: 'PYTHONWARNINGS', listOf: { tool: 'python', flag: 'W' }, why: 'a warning category with a module path imports that module' },
  { names: /^PYTEST_PLUGINS$/, label: 'PYTEST_PLUGINS', why: 'pytest imports the modules it lists as plugins' },
  { names: /^PYTHON(STARTUP|PATH|HOME|USERBASE|INSPECT|BREAKPOINT|EXECUTABLE)$/, label: 'PYTHONPATH, PYTHONSTARTUP, PYTHONHOME, PYTHONBREAKPOINT, ...', why: 'where Python imports from, or code it runs at start or on breakpoint()' },
  { names: /^(LD_\w+|DYLD_\w+)$/, label: 'LD_PRELOAD, LD_LIBRARY_PATH, DYLD_*', why: 'loads shared libraries into every program' },
  { names: /^(BASH_ENV|ENV|PROMPT_COMMAND|PS4|SHELLOPTS|BASHOPTS)$/, label: 'BASH_ENV, ENV, SHELLOPTS, ...', why: 'code a shell runs at start (or options that make it do so)' },
  { names: /^npm_config_\w+$/i, label: 'npm_config_* (any case)', why: 'npm configuration (script-shell, node-options, prefix, ...)' },
  { names: /^(YARN_\w+|PNPM_\w+)$/, label: 'YARN_*, PNPM_*', why: 'yarn and pnpm configuration (yarnPath runs a JavaScript file as yarn)' },
  { names: /^(RUSTC\w*|RUSTDOC\w*|RUSTFLAGS|RUSTUP_TOOLCHAIN|CARGO_\w+)$/, label: 'RUSTC_WRAPPER, RUSTFLAGS, RUSTDOC, RUSTUP_TOOLCHAIN, CARGO_* (CARGO_TARGET_*_RUNNER, CARGO_BUILD_RUSTC_WRAPPER, ...)', why: 'programs cargo runs (compiler, wrapper, runner, linker via flags)' },
  { names: /^(GIT_\w+|XDG_CONFIG_HOME)$/, label: 'GIT_* (GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_PAGER, GIT_CONFIG_*, ...), XDG_CONFIG_HOME', why: 'programs git runs, or configuration it reads (which can name programs)' },
  { names: /^(PAGER|MANPAGER|LESSOPEN|LESSCLOSE|LESS|EDITOR|VISUAL|BROWSER|\w*ASKPASS)$/, label: 'PAGER, LESSOPEN, EDITOR, VISUAL, BROWSER, *ASKPASS', why: 'a program git, npm or less runs' },
  { names: /^(MAKEFILES|MAKEFLAGS|GNUMAKEFLAGS|MFLAGS|MAKESHELL|GOFLAGS|GOENV|GOROOT)$/, label: 'MAKEFILES, MAKEFLAGS, GNUMAKEFLAGS, MFLAGS, MAKESHELL, GOFLAGS, GOENV, GOROOT', why: 'makefiles or flags make and go read (`SHELL=./x`, -toolexec), or the go toolchain they run' },
  { names: /^TAR_OPTIONS$/, label: 'TAR_OPTIONS', argsOf: TAR, why: 'tar reads options from it (--to-command, -I)' },
  { names: /^(AWKPATH|AWKLIBPATH)$/, label: 'AWKPATH, AWKLIBPATH', why: 'where gawk finds the program files and libraries it loads' },
  { names: /^(MANOPT|MANROFFOPT|MANPL|SYSTEMD_PAGER|SYSTEMD_PAGERSECURE|LESSKEY\w*|LESSEDIT|LESSSECURE|EXINIT|VIMINIT|MYVIMRC)$/, label: 'MANOPT, MANROFFOPT, SYSTEMD_PAGER, LESSKEY*, LESSEDIT, EXINIT, VIMINIT', why: 'options man reads, or pagers and editors (and the commands they run)' },
  { names: /^(RSYNC_RSH|RSYNC_CONNECT_PROG|ZIPOPT|UNZIP|GCONV_PATH)$/, label: 'RSYNC_RSH, RSYNC_CONNECT_PROG, ZIPOPT, UNZIP, GCONV_PATH', why: 'the program rsync runs, options zip reads (-TT), or where glibc loads conversion modules from' },
  { names: /^(JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JAVA_OPTS|MAVEN_OPTS|MAVEN_ARGS|GRADLE_OPTS|GRADLE_USER_HOME)$/, label: 'JAVA_TOOL_OPTIONS, MAVEN_OPTS, MAVEN_ARGS, GRADLE_OPTS, GRADLE_USER_HOME', why: 'JVM options (-javaagent), maven arguments or gradle init scripts' },
];
