/**
 * Programs that read the environment from inside their own language, in
 * program text given on the command line: awk's `ENVIRON`, perl's `%ENV`,
 * python's `os.environ`/`os.getenv`, node's `process.env`, ruby's `ENV`,
 * jq's `env`/`$ENV`. Under `blocked_env` such a command prints a blocked
 * variable without the shell ever expanding it, so it is denied, saying
 * which words do it. Program text only known when it runs is denied too (it
 * could say anything); a script file is not read (what a program does with
 * its own environment there is the env rewrite's job: docs/enforcement.md).
 *
 * Each language's table says where its inline program stands (the option
 * that gives it, or the first operand) and how its options take values, so
 * `awk '{print $1}' "$FILE"` (a run-time file name) still passes.
 */
import { safeAwkProgram } from './command-risks';
import type { Word } from './words';

interface CodeReader {
  readonly language: string;
  readonly names: RegExp;
  /** Short options whose value is program text (`-e`, `-c`); long ones (`--eval`). */
  readonly codeShort: string;
  readonly codeLong: readonly string[];
  /** Short options that take a value: the rest of the cluster, else the next word. */
  readonly valueShort: string;
  /** Long options that take the next word (when not given with `=`), and how many words. */
  readonly valueLong: Readonly<Record<string, number>>;
  /** Without a code option, the first operand is the program text (awk, jq) rather than a script file; unless one of these is given. */
  readonly firstOperand?: { readonly unless: readonly string[] };
  /** Short options are whole words (node), not clustered letters. */
  readonly noClusters?: boolean;
  /** Options after which the rest are the program's arguments (python -m MOD, `-c`). */
  readonly stopsAt?: string;
  /** What in the text reads the environment. */
  readonly reads: RegExp;
  readonly how: string;
  /** Other program text that can print the environment (awk running `env`). */
  readonly alsoUnsafe?: { readonly test: (text: string) => boolean; readonly how: string };
}

const READERS: readonly CodeReader[] = [
  {
    language: 'awk',
    names: /^(awk|gawk|mawk|nawk)$/,
    codeShort: 'e',
    codeLong: ['source'],
    valueShort: 'fvFilEW',
    valueLong: { file: 1, assign: 1, 'field-separator': 1, include: 1, load: 1, exec: 1 },
    firstOperand: { unless: ['-f', '--file', '-E', '--exec', '-e', '--source'] },
    reads: /\bENVIRON\b/,
    how: "awk's ENVIRON array holds every environment variable",
    alsoUnsafe: { test: (t) => !safeAwkProgram(t), how: 'the awk program runs commands (`system()`, pipes), which can print the environment' },
  },
  {
    language: 'perl',
    names: /^perl[\d.]*$/,
    codeShort: 'eE',
    codeLong: [],
    valueShort: 'iIMmxCdDFV',
    valueLong: {},
    // `$ENV{X}`, `%ENV`, `@ENV{...}`, `%main::ENV`, `*ENV`, `${ENV}`.
    reads: /[$%@*]\s*\{?\s*(?:(?:main)?::)?ENV\b/,
    how: "perl's %ENV holds every environment variable",
  },
  {
    language: 'python',
    names: /^(python[\d.]*|pypy[\d.]*)$/,
    codeShort: 'c',
    codeLong: [],
    valueShort: 'WXQm',
    valueLong: { 'check-hash-based-pycs': 1 },
    stopsAt: 'c',
    reads: /\b(?:environb?|getenvb?)\b/,
    how: "python's os.environ / os.getenv read environment variables",
  },
  {
    language: 'node',
    names: /^(node|nodejs)$/,
    codeShort: 'ep',
    codeLong: ['eval', 'print'],
    noClusters: true,
    valueShort: 'rC',
    valueLong: { require: 1, import: 1, loader: 1, 'experimental-loader': 1, conditions: 1, 'env-file': 1, 'input-type': 1, title: 1, 'stack-size': 1, 'max-old-space-size': 1 },
    // `process.env`, `process['env']`, `const { env } = process`.
    reads: /\benv\b|\bprocess\s*\[/,
    how: "node's process.env holds every environment variable",
  },
  {
    language: 'ruby',
    names: /^ruby[\d.]*$/,
    codeShort: 'e',
    codeLong: [],
    valueShort: 'IrxCEFiKTW',
    valueLong: {},
    reads: /\bENV\b/,
    how: "ruby's ENV holds every environment variable",
  },
  {
    language: 'jq',
    names: /^(jq|gojq|jaq)$/,
    codeShort: '',
    codeLong: [],
    valueShort: 'L',
    valueLong: { arg: 2, argjson: 2, slurpfile: 2, rawfile: 2, indent: 1, 'from-file': 1 },
    firstOperand: { unless: ['-f', '--from-file'] },
    // The `env` builtin and `$ENV` (not the field `.env`).
    reads: /(?<![.\w$])env\b|\$ENV\b/,
    how: "jq's `env` and `$ENV` hold every environment variable",
  },
];

/** The program text words of a command (and whether one was given by an option). */
function codeWords(r: CodeReader, words: readonly Word[]): Word[] {
  const code: Word[] = [];
  const given: string[] = [];
  const operands: Word[] = [];
  let i = 1;
  for (; i < words.length; i++) {
    const w = words[i]!;
    const v = w.value;
    if (w.dynamic || !v.startsWith('-') || v === '-') {
      operands.push(w);
      // Interpreters stop reading options at the script (awk and jq read on: their options may follow).
      if (!r.firstOperand) break;
      continue;
    }
    if (v === '--') {
      operands.push(...words.slice(i + 1));
      break;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = v.slice(2, eq < 0 ? undefined : eq);
      given.push(`--${name}`);
      const isCode = r.codeLong.some((l) => l.startsWith(name) && name.length > 0);
      if (eq >= 0) {
        if (isCode) code.push({ ...w, value: v.slice(eq + 1) });
        continue;
      }
      if (isCode) {
        if (words[i + 1]) code.push(words[i + 1]!);
        i++;
        continue;
      }
      const n = Object.entries(r.valueLong).find(([l]) => l.startsWith(name))?.[1] ?? 0;
      i += n;
      continue;
    }
    if (r.noClusters) {
      // node: `-pe` is an alias of `--print --eval`, not letters; each short option is a word of its own.
      given.push(v);
      if (r.codeShort.split('').some((c) => v === `-${c}`) || v === '-pe') {
        if (words[i + 1]) code.push(words[++i]!);
      } else if (r.valueShort.split('').some((c) => v === `-${c}`)) i++;
      continue;
    }
    let stop = false;
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      given.push(`-${c}`);
      const rest = v.slice(k + 1);
      if (r.codeShort.includes(c)) {
        if (rest !== '') code.push({ ...w, value: rest });
        else if (words[i + 1]) code.push(words[++i]!);
        stop = r.stopsAt === c;
        break;
      }
      // perl's and ruby's -0 and -l take only attached digits (`-l0`, `-0777`, `-0x1f`): the cluster goes on after them.
      if ((c === '0' || c === 'l') && r.language !== 'awk') {
        k += (/^(?:x[0-9a-fA-F]+|[0-7]*)/.exec(rest)?.[0] ?? '').length;
        continue;
      }
      if (r.valueShort.includes(c)) {
        if (rest === '') i++;
        break;
      }
    }
    if (stop) return code;
  }
  if (r.firstOperand && code.length === 0 && !r.firstOperand.unless.some((u) => given.includes(u)) && operands[0]) code.push(operands[0]);
  return code;
}

/** Why this command's program text reads the environment, or undefined. */
export function codeEnvReadReason(words: readonly Word[]): string | undefined {
  const name = words[0];
  if (!name || name.dynamic) return undefined;
  const base = name.value.split('/').pop() ?? '';
  const r = READERS.find((x) => x.names.test(base));
  if (!r) return undefined;
  for (const w of codeWords(r, words)) {
    if (w.dynamic) return `its ${r.language} program text (${w.text}) is only known when it runs, and could read the environment`;
    if (r.reads.test(w.value)) return `its ${r.language} program reads the environment (${r.how})`;
    if (r.alsoUnsafe?.test(w.value)) return r.alsoUnsafe.how;
  }
  return undefined;
}
