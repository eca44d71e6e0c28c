/**
 * Reads a simple command's arguments the way its tool would, with the
 * knowledge in command-risks.ts, to find the flags, positional words and
 * assignments that make an allowed command load or run other code. Also
 * finds which program a command finally runs (`npx X`, `npm exec X`,
 * `node SCRIPT`), for own-cli.ts.
 *
 * It fails closed: a word only known when it runs, where the tool reads
 * options, is a finding unless it cannot become an option (it stays one word
 * and starts with a literal character other than `-`).
 */
import { ENV_RISKS, PYTHON_MODULES, SCRIPT_ARGS, TOOL_RISKS, safeWarningFilter, type FlagRisk, type PositionalRisk, type ToolRisks } from './command-risks';
import { isCodeLoadingVar } from './commands';
import { wordShape } from './dynamic-shape';
import type { Word } from './words';

export { dynamicShape } from './dynamic-shape';

export interface Finding {
  /** What was found, as the reason names it (`npm --script-shell`, `make VAR=value`). */
  readonly what: string;
  readonly why: string;
  /** The index of the last word it involves (the flag's value, when that is the next word). */
  readonly last: number;
  /** A word only known when it runs: it could hide an option. */
  readonly dynamic?: boolean;
  /** Whether ending the tool's options with `--` would keep such a word from being read as one. */
  readonly dashDashEnds?: boolean;
  /** Nothing to name in an entry: the way out is another command (naming the script). */
  readonly fix?: string;
}

/**
 * Whether the matched entry itself fixes the word at `index` up to character
 * `upTo` (a flag named by the entry is the entry's own choice).
 */
export type Named = (index: number, upTo: number) => boolean;

const NOTHING_NAMED: Named = () => false;

const BY_NAME = new Map<string, ToolRisks>();
for (const t of TOOL_RISKS) for (const n of t.names) BY_NAME.set(n, t);

/** A program's name as a table knows it: the last path segment, without a Windows extension; `python3.12` is python. */
export function programName(value: string): string {
  const base = value.slice(Math.max(value.lastIndexOf('/'), value.lastIndexOf('\\')) + 1).replace(/\.(exe|cmd|bat)$/i, '');
  return /^python\d+(\.\d+)*$/.test(base) ? 'python' : base;
}

/** A package argument's name (`stategate@1.2` → stategate, `@scope/pkg@2` → pkg). */
export function packageName(spec: string): string {
  const at = spec.lastIndexOf('@');
  const bare = at > 0 ? spec.slice(0, at) : spec;
  return bare.slice(bare.lastIndexOf('/') + 1);
}

function fold(name: string, how: ToolRisks['syntax']['fold']): string {
  switch (how) {
    case 'underscore':
      return name.replace(/_/g, '-');
    case 'npm':
      return name.toLowerCase().replace(/_/g, '-');
    case 'loose':
      return name.toLowerCase().replace(/[-_]/g, '');
    default:
      return name;
  }
}

/** The index in a word's value where run-time text may start (conservatively: the first special character). */
function dynamicFrom(w: Word): number {
  if (!w.dynamic) return Infinity;
  const at = w.value.search(/[$`*?[{~]/);
  return at < 0 ? 0 : at;
}

/** A table's risky flags by spelling (folded long names, short letters): asked of every option word, so built once. */
interface FlagIndex {
  readonly long: ReadonlyMap<string, readonly FlagRisk[]>;
  readonly short: ReadonlyMap<string, readonly FlagRisk[]>;
}

const indexes = new WeakMap<ToolRisks, FlagIndex>();

function flagIndex(t: ToolRisks): FlagIndex {
  let index = indexes.get(t);
  if (!index) {
    const long = new Map<string, FlagRisk[]>();
    const short = new Map<string, FlagRisk[]>();
    const add = (map: Map<string, FlagRisk[]>, key: string, f: FlagRisk): void => {
      const list = map.get(key);
      if (list) list.push(f);
      else map.set(key, [f]);
    };
    for (const f of t.flags) {
      for (const l of f.long ?? []) add(long, fold(l, t.syntax.fold), f);
      for (const c of f.short ?? '') add(short, c, f);
    }
    index = { long, short };
    indexes.set(t, index);
  }
  return index;
}

/** The risky flags a long name means (with abbreviations: every risky name it is a prefix of). */
function longRisks(t: ToolRisks, folded: string): readonly FlagRisk[] {
  const index = flagIndex(t).long;
  const sx = t.syntax;
  if (!sx.abbreviations || folded.length < 2 || sx.realPrefixes?.includes(folded)) return index.get(folded) ?? NONE;
  const out: FlagRisk[] = [];
  for (const [name, flags] of index) if (name.startsWith(folded)) out.push(...flags);
  return out;
}

const NONE: readonly FlagRisk[] = [];

/** The same table read another way (after `npm exec`, after `yarn run`...): made once per table. */
const variants = new WeakMap<ToolRisks, Map<string, ToolRisks>>();

function variant(t: ToolRisks, key: 'program' | 'own' | 'script', first: ToolRisks['first']): ToolRisks {
  let byKey = variants.get(t);
  if (!byKey) variants.set(t, (byKey = new Map()));
  let v = byKey.get(key);
  if (!v) byKey.set(key, (v = { ...t, first }));
  return v;
}

const splitsApart = (w: Word): boolean => w.dynamic && wordShape(w).splits;

/** Called with each program a command ends up running: the command itself, `npx X`'s X, `node`'s script. */
export type ProgramVisitor = (how: 'command' | 'package' | 'script', word: Word, rest: readonly Word[]) => void;

class Reader {
  found: Finding | undefined;

  constructor(
    private readonly words: readonly Word[],
    private readonly named: Named,
    /** Reading only to find programs: keep going after a finding. */
    private readonly onProgram?: ProgramVisitor,
    /** Reading option text (NODE_OPTIONS): no script is expected. */
    private readonly optionsOnly = false,
  ) {}

  /** Record a finding; true when reading should stop. */
  private find(f: Finding): boolean {
    this.found ??= f;
    return this.onProgram === undefined;
  }

  /** Read `t`'s arguments from word `start` on. Returns when done or on the first finding. */
  read(t: ToolRisks, start: number): void {
    const sx = t.syntax;
    const positionals: string[] = [];
    let sawStdinException = false;
    let operandsOnly = false;
    for (let i = start; i < this.words.length; i++) {
      const w = this.words[i]!;
      const v = w.value;
      if (!w.dynamic && v === '--' && !operandsOnly && sx.dashDash === 'operands') {
        operandsOnly = true;
        continue;
      }
      if (!w.dynamic && v === '--' && !operandsOnly) {
        if (t.first?.kind === 'program' && positionals.length === 0) return this.program(t, i + 1);
        if (sx.dashDash === 'scripts') return this.read(SCRIPT_ARGS, i + 1);
        if (sx.dashDash === 'end') return;
        continue;
      }
      if (v.startsWith('-') && v !== '-' && !operandsOnly) {
        if (t.stdinWithout && (t.stdinWithout.includes(v.split('=')[0] ?? v) || (!v.startsWith('--') && [...v.slice(1)].some((c) => t.stdinWithout?.includes(`-${c}`))))) {
          sawStdinException = true;
        }
        const next = this.option(t, i);
        if (next === 'stop') return;
        if (typeof next === 'object') return this.switchTo(next.table, next.from);
        i = next;
        continue;
      }
      // A positional word.
      if (w.dynamic) {
        const shape = wordShape(w);
        if (shape.splits || shape.first === undefined || shape.first === '-') {
          if (this.find({ what: `\`${w.text}\``, why: `is only known when it runs, and ${t.tool} reads options there`, last: i, dynamic: true, dashDashEnds: sx.dashDash === 'end' })) return;
        }
        // Risks tied to one place are told by the first character (`-`, `+toolchain`), which is literal here; others cannot be told.
        if (t.first || t.positionals?.some((p) => p.at === undefined)) {
          if (this.find({ what: `\`${w.text}\``, why: `is only known when it runs, where ${t.tool} reads ${t.first ? 'a command' : 'words that can run code'}`, last: i, dynamic: true })) return;
        }
      }
      positionals.push(v);
      const risk = t.positionals?.find((p) => (p.at === undefined || p.at === positionals.length - 1) && p.test(positionals, positionals.length - 1));
      // An entry names such a word by fixing it up to its `=` or `:` (`make test V=*`, `mvn exec:*`).
      const upTo = /[=:]/.test(v) ? v.search(/[=:]/) + 1 : v.length;
      if (risk && !this.named(i, upTo) && this.find(this.positionalFinding(t, risk, i))) return;
      if (sx.stopAtPositional) {
        this.onProgram?.('script', w, this.words.slice(i + 1));
        return;
      }
      if (positionals.length === 1 && t.first) return this.first(t, i);
    }
    if (t.stdinWithout && !this.optionsOnly && positionals.length === 0 && !sawStdinException) {
      this.find({ what: `${t.tool} without a script`, why: 'reads the program from its input', last: this.words.length - 1, fix: 'name the script to run' });
    }
  }

  private positionalFinding(t: ToolRisks, risk: PositionalRisk, i: number): Finding {
    return { what: `${t.tool} ${risk.label}`, why: risk.why, last: i };
  }

  private switchTo(table: ToolRisks | undefined, from: number): void {
    if (table) this.read(table, from);
  }

  /** The first positional word of a tool with subcommands, a program, or package-manager commands. */
  private first(t: ToolRisks, i: number): void {
    const first = t.first!;
    const v = this.words[i]!.value;
    if (first.kind === 'subcommands') return this.switchTo(Object.hasOwn(first.tables, v) ? first.tables[v] : undefined, i + 1);
    if (first.kind === 'program') return this.program(t, i);
    if (first.launch.includes(v)) return this.read(variant(t, 'program', { kind: 'program' }), i + 1);
    if (first.scriptArgs === 'after-dash-dash' || first.own.includes(v)) {
      // npm reads its own options everywhere; so do yarn's and pnpm's own commands.
      return this.read(variant(t, 'own', undefined), i + 1);
    }
    // `yarn run [options] NAME`: its options come first, then the script's name.
    if (first.run.includes(v)) return this.read(variant(t, 'script', { ...first, launch: [], run: [], own: [] }), i + 1);
    return this.script(this.words[i]!, i + 1);
  }

  /** `yarn NAME ...`: a package script or a program of node_modules/.bin; its arguments follow. */
  private script(name: Word, from: number): void {
    this.onProgram?.('package', name, this.words.slice(from));
    const known = name.dynamic ? undefined : BY_NAME.get(programName(name.value));
    this.read(known ?? SCRIPT_ARGS, from);
  }

  /** `npx NAME ...`: a program run with the rest; its own table reads them. */
  private program(t: ToolRisks, i: number): void {
    const w = this.words[i];
    if (!w) return;
    if (w.dynamic) {
      this.find({ what: `\`${w.text}\``, why: `is only known when it runs, where ${t.tool} reads the program to run`, last: i, dynamic: true });
      return;
    }
    this.onProgram?.('package', w, this.words.slice(i + 1));
    this.switchTo(BY_NAME.get(programName(packageName(w.value))), i + 1);
  }

  /**
   * An option word at `i`: returns the index of the last word it used, 'stop'
   * (a finding ends reading), or the table that reads on (`python -m pytest`).
   */
  private option(t: ToolRisks, i: number): number | 'stop' | { table: ToolRisks | undefined; from: number } {
    const w = this.words[i]!;
    const v = w.value;
    const sx = t.syntax;
    const dynFrom = dynamicFrom(w);
    const shorts = sx.shorts ?? 'cluster';
    if (v.startsWith('--') || shorts === 'long') {
      const dashes = v.startsWith('--') ? 2 : 1;
      const attachedLetter = dashes === 1 && sx.attached?.includes(v[1] ?? '') && v.length > 2;
      const eq = attachedLetter ? 2 : v.indexOf('=');
      const name = attachedLetter ? (v[1] ?? '') : v.slice(dashes, eq < 0 ? undefined : eq);
      const attached = attachedLetter ? v.slice(2) : eq < 0 ? undefined : v.slice(eq + 1);
      const nameEnd = dashes + name.length;
      if (dynFrom < nameEnd) return this.dynamicOption(t, i) ? 'stop' : i;
      const risky = longRisks(t, fold(name, sx.fold));
      if (risky.length > 0) return this.flag(t, risky, i, v.slice(0, nameEnd), nameEnd, attached, dynFrom);
      // `--tb=$X` unquoted can split into `--tb=a -p plugin`.
      if (attached !== undefined) return splitsApart(w) && this.dynamicOption(t, i) ? 'stop' : i;
      if (sx.longWithValue?.includes(name)) return this.plainValue(t, i);
      return i;
    }
    const letters = v.slice(1);
    for (let k = 0; k < letters.length; k++) {
      const at = k + 1;
      if (dynFrom <= at) return this.dynamicOption(t, i) ? 'stop' : i;
      const ch = letters[k]!;
      const rest = letters.slice(k + 1);
      if (t.programFlag === ch) {
        const mod = rest !== '' ? rest : this.words[i + 1]?.value;
        if (rest === '' && this.words[i + 1]?.dynamic) return this.dynamicOption(t, i + 1) ? 'stop' : i + 1;
        return { table: mod !== undefined && Object.hasOwn(PYTHON_MODULES, mod) ? PYTHON_MODULES[mod] : undefined, from: rest !== '' ? i + 1 : i + 2 };
      }
      const risky = flagIndex(t).short.get(ch);
      if (risky) return this.flag(t, risky, i, `-${ch}`, at + 1, rest === '' ? undefined : rest, dynFrom);
      if (sx.shortWithValue?.includes(ch)) {
        if (rest === '') return this.plainValue(t, i);
        return splitsApart(w) && this.dynamicOption(t, i) ? 'stop' : i;
      }
      if (shorts === 'single') return i;
    }
    return i;
  }

  /** A word only known when it runs, where the tool reads an option's name. */
  private dynamicOption(t: ToolRisks, i: number): boolean {
    return this.find({ what: `\`${this.words[i]!.text}\``, why: `is only known when it runs, and ${t.tool} reads options there`, last: i, dynamic: true, dashDashEnds: t.syntax.dashDash === 'end' });
  }

  /** The value word of an option that loads nothing: skipped, unless it could split into options. */
  private plainValue(t: ToolRisks, i: number): number | 'stop' {
    const next = this.words[i + 1];
    if (!next || (!next.dynamic && next.value.startsWith('-') && next.value !== '-')) return i;
    return splitsApart(next) && this.dynamicOption(t, i + 1) ? 'stop' : i + 1;
  }

  /**
   * A risky flag (one spelling may mean several, in the script-arguments
   * table): its value is read, and each meaning must find it safe.
   */
  private flag(t: ToolRisks, risky: readonly FlagRisk[], i: number, spelling: string, nameEnd: number, attached: string | undefined, dynFrom: number): number | 'stop' {
    const takesNext = risky.some((f) => f.value === 'next') && attached === undefined;
    const valueWord = takesNext ? this.words[i + 1] : undefined;
    const last = valueWord ? i + 1 : i;
    if (this.named(i, nameEnd)) return last;
    const value = attached ?? valueWord?.value;
    const dynamicValue = attached !== undefined ? dynFrom < Infinity : (valueWord?.dynamic ?? false);
    for (const f of risky) {
      const seen = f.value === 'attached' ? (attached ?? '') : value;
      const ok = f.value !== 'none' && seen !== undefined && !dynamicValue && f.safe !== undefined && f.safe(seen);
      if (!ok && this.find({ what: `${t.tool} ${spelling}`, why: f.why, last })) return 'stop';
    }
    return last;
  }
}

/**
 * The first flag, positional word or run-time word in `words` (a simple
 * command after quote removal, the program first) that makes its tool load
 * or run other code, and that the matched entry does not name.
 */
export function riskyArguments(words: readonly Word[], named: Named = NOTHING_NAMED): Finding | undefined {
  const first = words[0];
  if (!first || first.dynamic) return undefined;
  const table = BY_NAME.get(programName(first.value));
  if (!table) return undefined;
  if (table.always) return { what: table.tool, why: table.always.why, last: words.length - 1, fix: table.always.fix };
  const old = oldStyle(table, words);
  // The letters of an old-style first word are read as options of their own; the entry names none of them.
  const reader = new Reader(old ?? words, old ? (i, upTo) => i > old.length - words.length + 1 && named(i - (old.length - words.length), upTo) : named);
  reader.read(table, 1);
  if (reader.found && old) return { ...reader.found, last: Math.max(1, reader.found.last - (old.length - words.length)) };
  return reader.found;
}

/**
 * tar's old style (`tar cfI a.tar ./x`): the first word's letters are options
 * of their own, and each that takes a value takes the next free word, in
 * order: read as `-c -fa.tar -I./x`.
 */
function oldStyle(t: ToolRisks, words: readonly Word[]): Word[] | undefined {
  const w = words[1];
  if (!t.syntax.oldStyle || !w || w.dynamic || w.value.startsWith('-') || !/^[A-Za-z]+$/.test(w.value)) return undefined;
  const takesValue = (c: string): boolean => (t.syntax.shortWithValue ?? '').includes(c) || (flagIndex(t).short.get(c) ?? []).some((f) => f.value === 'next');
  const out: Word[] = [words[0]!];
  let next = 2;
  for (const c of w.value) {
    const v = takesValue(c) ? words[next++] : undefined;
    out.push(v ? { value: `-${c}${v.value}`, dynamic: v.dynamic, text: v.text } : { value: `-${c}`, dynamic: false, text: w.text });
  }
  return [...out, ...words.slice(next)];
}

/** Each program the command runs, through npx, package managers and node (for own-cli.ts). */
export function visitPrograms(words: readonly Word[], visit: ProgramVisitor): void {
  const first = words[0];
  if (!first) return;
  visit('command', first, words.slice(1));
  const table = first.dynamic ? undefined : BY_NAME.get(programName(first.value));
  if (table) new Reader(words, NOTHING_NAMED, visit).read(table, 1);
}

/** Option text read as words, the way node (NODE_OPTIONS) and pytest (PYTEST_ADDOPTS) split it: quotes and backslashes dropped. */
function optionWords(text: string): Word[] {
  return text
    .replace(/["'\\]/g, '')
    .split(/\s+/)
    .filter((s) => s !== '')
    .map((s) => ({ value: s, dynamic: false, text: s }));
}

export interface Assignment {
  readonly name: string;
  /** The value after quote removal (undefined: none written). */
  readonly value?: Word;
  /** `NAME+=value`: appends to a value stategate cannot see. */
  readonly append: boolean;
  /** As written. */
  readonly text: string;
}

/** Why an assignment makes a command load or run other code, or undefined. */
export function riskyAssignment(a: Assignment): string | undefined {
  const rule = ENV_RISKS.find((r) => r.names.test(a.name));
  if (rule?.argsOf || rule?.listOf) {
    const value = a.value;
    if (a.append || (value?.dynamic ?? false)) return `${rule.why}, and its value is only known when it runs`;
    const text = value?.value ?? '';
    if (rule.listOf) return text.split(',').every(safeWarningFilter) ? undefined : rule.why;
    const table = rule.argsOf!;
    const reader = new Reader([{ value: table.tool, dynamic: false, text: '' }, ...optionWords(text)], NOTHING_NAMED, undefined, true);
    reader.read(table, 1);
    return reader.found ? `${rule.why}; it holds ${reader.found.what.replace(/^\S+ /, '')}: ${reader.found.why}` : undefined;
  }
  if (rule) return rule.why;
  return isCodeLoadingVar(a.name) ? 'it changes what commands run or load' : undefined;
}
