/**
 * The flags of test runners, compilers, linters and reporters that name a
 * file (or folder) they write: `pytest --junitxml=F`, `node --test
 * --test-reporter-destination=F`, `jest --outputFile=F`, `tsc --outDir D`,
 * `gcc -o F`, `go build -o F`. An author allows these
 * commands to run tests or builds; the file they write is still a write, so
 * the path rules (protected files, allowed_paths) check it and a state that
 * allows no Write or Edit denies it. Data only, one table per tool; the
 * reading is below.
 */
import type { WriteTarget } from './write-targets';
import type { Word } from './words';

export interface OutputFlag {
  /** Long names without dashes (compared after the tool's folding). */
  readonly long?: readonly string[];
  /** Long names whose any continuation also writes (`outputFile.json` of vitest). */
  readonly longPrefix?: readonly string[];
  /** Short letters (`-o F`, `-oF`). */
  readonly short?: string;
  /** How the path is found in the value: all of it, after `TYPE:` (`xml:out.xml`), or in `output=PATH` pairs. */
  readonly path?: 'value' | 'after-colon' | 'output-pair';
  /** A folder: everything under it may change. */
  readonly tree?: boolean;
  /** Values that name no file (node's `--test-reporter-destination=stdout`). */
  readonly notFiles?: readonly string[];
}

export interface ToolOutputs {
  readonly tool: string;
  readonly names: readonly string[];
  /** `exact`; `underscore` (node: `_` = `-`); `loose` (any case, `-`/`_` dropped: jest, tsc). */
  readonly fold: 'exact' | 'underscore' | 'loose';
  /** A word with one dash is a long name (`go build -o`, `-coverprofile=f`). */
  readonly singleDashLong?: boolean;
  readonly flags: readonly OutputFlag[];
}

const PYTEST: ToolOutputs = {
  tool: 'pytest',
  names: ['pytest', 'py.test'],
  fold: 'exact',
  flags: [
    { long: ['junitxml', 'junit-xml', 'junit-prefix-file', 'resultlog', 'result-log', 'report-log', 'html', 'json-report-file', 'md-report-output'] },
    { long: ['cov-report'], path: 'after-colon' },
  ],
};

const NODE: ToolOutputs = {
  tool: 'node',
  names: ['node', 'nodejs'],
  fold: 'underscore',
  flags: [
    { long: ['test-reporter-destination'], notFiles: ['stdout', 'stderr'] },
    { long: ['redirect-warnings', 'localstorage-file', 'report-filename', 'cpu-prof-name', 'heap-prof-name'] },
    { long: ['cpu-prof-dir', 'heap-prof-dir', 'diagnostic-dir', 'report-directory'], tree: true },
  ],
};

const JEST: ToolOutputs = {
  tool: 'jest',
  names: ['jest', 'vitest', 'mocha', '_mocha'],
  fold: 'loose',
  flags: [
    { long: ['outputFile'], longPrefix: ['outputFile.'] },
    { long: ['coverageDirectory', 'cacheDirectory', 'coverage.reportsDirectory'], tree: true },
    { long: ['reporter-option', 'reporter-options'], short: 'O', path: 'output-pair' },
  ],
};

const ESLINT: ToolOutputs = {
  tool: 'eslint',
  names: ['eslint'],
  fold: 'exact',
  flags: [{ long: ['output-file', 'cache-location'], short: 'o' }],
};

const PRETTIER: ToolOutputs = {
  tool: 'prettier',
  names: ['prettier'],
  fold: 'exact',
  flags: [{ long: ['cache-location'] }],
};

const TSC: ToolOutputs = {
  tool: 'tsc',
  names: ['tsc'],
  fold: 'loose',
  flags: [{ long: ['outFile', 'out', 'tsBuildInfoFile'] }, { long: ['outDir', 'declarationDir'], tree: true }],
};

const CC: ToolOutputs = {
  tool: 'cc',
  names: ['gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'ld', 'as'],
  fold: 'exact',
  flags: [{ short: 'o' }, { long: ['MF'] }],
};

const GO: ToolOutputs = {
  tool: 'go',
  names: ['go'],
  fold: 'exact',
  singleDashLong: true,
  flags: [{ long: ['o', 'coverprofile', 'cpuprofile', 'memprofile', 'blockprofile', 'mutexprofile', 'trace'] }, { long: ['outputdir'], tree: true }],
};

const CARGO: ToolOutputs = {
  tool: 'cargo',
  names: ['cargo'],
  fold: 'exact',
  flags: [{ long: ['target-dir', 'artifact-dir', 'out-dir'], tree: true }],
};

const COVERAGE: ToolOutputs = {
  tool: 'coverage',
  names: ['coverage'],
  fold: 'exact',
  flags: [{ long: ['data-file'], short: 'o' }, { long: ['directory'], short: 'd', tree: true }],
};

/** Every tool whose output flags are known, in the order the docs would list them. */
export const TOOL_OUTPUTS: readonly ToolOutputs[] = [PYTEST, NODE, JEST, ESLINT, PRETTIER, TSC, CC, GO, CARGO, COVERAGE];

/** What follows a package script's name or `--` (`npm test -- --outputFile=x`): the runner is unknown, so every runner's flags count. */
const SCRIPT_ARGS: ToolOutputs = { tool: 'the package script', names: [], fold: 'loose', flags: [...JEST.flags, ...ESLINT.flags, ...PYTEST.flags].map((f) => ({ ...f, short: undefined })) };

const BY_NAME = new Map<string, ToolOutputs>();
for (const t of TOOL_OUTPUTS) for (const n of t.names) BY_NAME.set(n, t);

function fold(name: string, how: ToolOutputs['fold']): string {
  if (how === 'underscore') return name.replace(/_/g, '-');
  if (how === 'loose') return name.toLowerCase().replace(/[-_]/g, '');
  return name;
}

const derived = (w: Word, value: string): Word => ({ ...w, value });
const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** The paths a flag's value names. */
function pathsIn(f: OutputFlag, value: Word): Word[] {
  switch (f.path) {
    case 'after-colon': {
      const at = value.value.indexOf(':');
      return at < 0 ? [] : [derived(value, value.value.slice(at + 1))];
    }
    case 'output-pair':
      return value.value
        .split(',')
        .filter((kv) => /^output=/.test(kv))
        .map((kv) => derived(value, kv.slice('output='.length)));
    default:
      return [value];
  }
}

/** The files the tool `t` writes through its flags, reading `words` from `from`. */
function read(t: ToolOutputs, words: readonly Word[], from: number): WriteTarget[] {
  const out: WriteTarget[] = [];
  for (let i = from; i < words.length; i++) {
    const w = words[i]!;
    const v = w.value;
    if (!v.startsWith('-') || v === '-' || w.dynamic) continue;
    if (v === '--') {
      // After a package script's `--` its runner's options go on.
      if (t === SCRIPT_ARGS) continue;
      break;
    }
    const long = v.startsWith('--') || t.singleDashLong;
    let flag: OutputFlag | undefined;
    let attached: string | undefined;
    if (long) {
      const body = v.slice(v.startsWith('--') ? 2 : 1);
      const eq = body.indexOf('=');
      const name = fold(eq < 0 ? body : body.slice(0, eq), t.fold);
      attached = eq < 0 ? undefined : body.slice(eq + 1);
      flag = t.flags.find((f) => f.long?.some((l) => fold(l, t.fold) === name) || f.longPrefix?.some((p) => name.startsWith(fold(p, t.fold))));
    }
    if (!flag && !v.startsWith('--')) {
      const c = v[1] ?? '';
      flag = t.flags.find((f) => f.short?.includes(c));
      attached = flag && v.length > 2 ? v.slice(2) : undefined;
      // `-MF file` (cc) is a long name with one dash.
      if (!flag) {
        flag = t.flags.find((f) => f.long?.includes(v.slice(1)));
        attached = undefined;
      }
    }
    if (!flag) continue;
    const value = attached !== undefined ? derived(w, attached) : words[++i];
    if (!value) continue;
    for (const p of pathsIn(flag, value)) if (p.dynamic || !flag.notFiles?.includes(p.value)) out.push({ word: p, tree: flag.tree ?? false });
  }
  return out;
}

/**
 * The files a command writes through output flags of the tool it runs
 * (`pytest`, `python -m pytest`, `npx jest`, `npm test -- --outputFile=F`),
 * `words` after quote removal.
 *
 * Formatters and fixers (`prettier --write`, `eslint --fix`, `black`) are
 * left out on purpose: they rewrite the sources they are given, `.` as often
 * as not, and a whole-tree write would deny them in every enforced run,
 * while the rewrite keeps what a file means.
 */
export function outputTargets(words: readonly Word[]): WriteTarget[] {
  const first = words[0];
  if (!first || first.dynamic) return [];
  const name = base(first.value);
  if (/^python\d*(\.\d+)*$/.test(name)) {
    const m = words.findIndex((w) => w.value === '-m' || w.value.startsWith('-m'));
    const mod = m < 0 ? undefined : words[m]!.value === '-m' ? words[m + 1]?.value : words[m]!.value.slice(2);
    const from = m < 0 ? 0 : words[m]!.value === '-m' ? m + 2 : m + 1;
    if (mod === 'pytest') return read(PYTEST, words, from);
    if (mod && BY_NAME.has(mod)) return outputTargets([derived(first, mod), ...words.slice(from)]);
    return [];
  }
  if (['npx', 'pnpx', 'bunx'].includes(name)) {
    const at = words.findIndex((w, i) => i > 0 && !w.value.startsWith('-'));
    return at < 0 ? [] : outputTargets(words.slice(at));
  }
  if (['npm', 'yarn', 'pnpm', 'bun'].includes(name)) return read(SCRIPT_ARGS, words, 1);
  const t = BY_NAME.get(name);
  return t ? read(t, words, 1) : [];
}
