/**
 * What stategate knows about particular commands: which ones only wrap
 * another command (the wrapped one is what must be allowed), which run a
 * shell body, which write files, which dump the environment. Everything here
 * works on words after quote removal (see words.ts); callers deny any
 * dynamic word these functions need to read.
 */
import { canonicalWords, getopt } from './getopt';
import { CHROOT_OPTIONS, ENV_OPTIONS, FLOCK_OPTIONS, NICE_OPTIONS, TIME_OPTIONS, WATCH_OPTIONS, NOHUP_OPTIONS, SETSID_OPTIONS, STDBUF_OPTIONS, TIMEOUT_OPTIONS, XARGS_OPTIONS } from './program-options';
import type { ProgramOptions } from './option-spec';
import { BUILTIN_OPTIONS, COMMAND_OPTIONS, EXEC_OPTIONS } from './builtin-options';
import { DOAS_OPTIONS, SUDO_OPTIONS } from './sudo-options';
import { codeEnvReadReason } from './env-in-code';
import { uniqOperands, writeTargets } from './write-targets';
import type { Word } from './words';

interface WrapperSpec {
  /** Options that take the next word as their argument (long ones may also use `=`). */
  readonly withArg?: readonly string[];
  /** Positional arguments between the options and the command (timeout's DURATION). */
  readonly leading?: number;
  /** `NAME=value` words before the command are assignments (env). */
  readonly assignments?: boolean;
  /** Options that make the wrapper run something we cannot see (a login shell, an editor, a split string). */
  readonly opaque?: readonly string[];
  /** Elevates privileges: the full command must be allowed as well as the wrapped one. */
  readonly privileged?: boolean;
  /**
   * Its options, read as getopt_long reads them (program-options.ts): then
   * `withArg` and `opaque` are unused, an option the table does not know is
   * an error, and a `runs` option is opaque.
   */
  readonly options?: ProgramOptions;
  /** After the leading words, `-c TEXT` / `--command TEXT` is shell text it runs (flock). */
  readonly commandFlag?: boolean;
  /** Joins the command's words and runs them with `sh -c`, unless this option is given (watch without -x). */
  readonly joinsUnless?: string;
  /** With no command it still runs something (chroot: `$SHELL -i`). */
  readonly alone?: string;
  /**
   * Not a plain pass-through (watch runs the command forever, flock creates
   * its lock file, chroot changes the root): an entry must allow the wrapper
   * itself as well as what it runs.
   */
  readonly itself?: boolean;
  /** Its first leading word is a file it creates when missing (flock's lock file; a number is a descriptor). */
  readonly createsLeading?: boolean;
}

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  nohup: { options: NOHUP_OPTIONS },
  // `time x= cmd` and `sudo X=1 cmd` take assignments before the command.
  time: { options: TIME_OPTIONS, assignments: true },
  nice: { options: NICE_OPTIONS },
  timeout: { options: TIMEOUT_OPTIONS, leading: 1 },
  env: { options: ENV_OPTIONS, assignments: true },
  command: { options: COMMAND_OPTIONS },
  builtin: { options: BUILTIN_OPTIONS },
  exec: { options: EXEC_OPTIONS },
  stdbuf: { options: STDBUF_OPTIONS },
  setsid: { options: SETSID_OPTIONS },
  coproc: {},
  busybox: {},
  xargs: { options: XARGS_OPTIONS },
  flock: { options: FLOCK_OPTIONS, leading: 1, commandFlag: true, itself: true, createsLeading: true },
  watch: { options: WATCH_OPTIONS, joinsUnless: 'exec', itself: true },
  chroot: { options: CHROOT_OPTIONS, leading: 1, privileged: true, itself: true, alone: 'with no command it runs `$SHELL -i`, which reads commands from its input' },
  sudo: { options: SUDO_OPTIONS, assignments: true, privileged: true },
  doas: { options: DOAS_OPTIONS, privileged: true },
};

export type Unwrapped =
  | {
      readonly kind: 'wrapped';
      readonly words: readonly Word[];
      readonly assignments: readonly Word[];
      readonly privileged: boolean;
      /** The wrapper's own words with options in their full spelling (read with its table), for envChdir and xargsReplace. */
      readonly own?: readonly Word[];
      /** Files the wrapper itself writes (`time -o FILE`). */
      readonly writes?: readonly Word[];
    }
  | { readonly kind: 'alone' }
  /** It runs shell text (`flock F -c TEXT`, `watch TEXT...`): analysed as a `sh -c` body. */
  | { readonly kind: 'shell'; readonly body: Word; readonly writes?: readonly Word[] }
  | { readonly kind: 'opaque'; readonly offending: string; readonly why?: string }
  /** Its options cannot be read the way it reads them (unknown, ambiguous, run-time): the reason says which. */
  | { readonly kind: 'unreadable'; readonly reason: string; readonly offending: string };

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The command a wrapper runs, after its options; `alone` when it runs none. */
export function unwrap(words: readonly Word[], spec: WrapperSpec): Unwrapped {
  const u = unwrapOnly(words, spec);
  return u.kind === 'wrapped' && spec.itself ? { ...u, privileged: true } : u;
}

function unwrapOnly(words: readonly Word[], spec: WrapperSpec): Unwrapped {
  if (spec.options) return unwrapWithTable(words, spec, spec.options);
  const assignments: Word[] = [];
  let i = 1;
  for (; i < words.length; i++) {
    const w = words[i];
    if (!w) break;
    if (w.dynamic) return { kind: 'opaque', offending: w.text };
    const v = w.value;
    if (v === '--') {
      i++;
      break;
    }
    if (spec.assignments && ASSIGNMENT.test(v)) {
      assignments.push(w);
      continue;
    }
    if (!v.startsWith('-') || v === '-') break;
    const name = v.includes('=') && v.startsWith('--') ? v.slice(0, v.indexOf('=')) : v;
    if (spec.opaque?.some((o) => name === o || (o.length === 2 && !v.startsWith('--') && v.slice(1).includes(o[1] ?? '')))) {
      return { kind: 'opaque', offending: w.text };
    }
    if (spec.withArg?.includes(name) && name === v) i++;
    else if (/^-[a-zA-Z0-9]{2,}$/.test(v)) {
      // A cluster (`-iu NAME`): the first letter that takes an argument takes
      // the rest of the cluster, or the next word when it is the last letter.
      const at = [...v.slice(1)].findIndex((ch) => spec.withArg?.includes(`-${ch}`));
      if (at === v.length - 2) i++;
    }
  }
  i += spec.leading ?? 0;
  const rest = words.slice(i);
  return rest.length === 0 ? { kind: 'alone' } : { kind: 'wrapped', words: rest, assignments, privileged: spec.privileged ?? false };
}

/** `unwrap` for a wrapper whose options are read with its getopt table. */
function unwrapWithTable(words: readonly Word[], spec: WrapperSpec, table: ProgramOptions): Unwrapped {
  const read = getopt(table, words);
  if (!read.ok) {
    const fix = read.dynamic ? 'write the run-time part in double quotes after a literal start' : `write the option in full, as ${table.program} --help lists it`;
    return { kind: 'unreadable', reason: `${read.error}; stategate cannot tell what it runs, so it is denied (${fix})`, offending: words[read.index]?.text ?? '' };
  }
  const runs = read.options.find((o) => o.spec.means === 'runs');
  if (runs) return { kind: 'opaque', offending: words.slice(runs.index, runs.last + 1).map((w) => w.text).join(' '), ...(runs.spec.why ? { why: runs.spec.why } : {}) };
  let i = read.end;
  // `env - cmd`: a lone `-` is -i.
  if (table === ENV_OPTIONS && words[i]?.value === '-' && !words[i]?.dynamic) i++;
  const assignments: Word[] = [];
  if (spec.assignments) {
    for (; i < words.length; i++) {
      const w = words[i]!;
      if (w.dynamic) return { kind: 'opaque', offending: w.text };
      if (!ASSIGNMENT.test(w.value)) break;
      assignments.push(w);
    }
  }
  const lead = words[i];
  const created = spec.createsLeading && lead && (lead.dynamic || !/^\d+$/.test(lead.value)) ? [lead] : [];
  i += spec.leading ?? 0;
  const rest = words.slice(i);
  const own = canonicalWords(words.slice(0, read.end), { ...read, operands: [] });
  if (rest.length === 0) return spec.alone ? { kind: 'opaque', offending: words.map((w) => w.text).join(' '), why: spec.alone } : { kind: 'alone' };
  const flag = rest[0]!;
  if (spec.commandFlag && !flag.dynamic && (flag.value === '-c' || flag.value === '--command')) {
    return rest[1] ? { kind: 'shell', body: rest[1], writes: created } : { kind: 'opaque', offending: flag.text };
  }
  if (spec.joinsUnless && !read.options.some((o) => o.spec.long?.[0] === spec.joinsUnless)) {
    const text = rest.map((w) => w.value).join(' ');
    return { kind: 'shell', body: { value: text, dynamic: rest.some((w) => w.dynamic), text: rest.map((w) => w.text).join(' ') }, writes: created };
  }
  const writes = [...read.options.filter((o) => o.spec.means === 'writes' && o.value).map((o) => o.value!), ...created];
  return { kind: 'wrapped', words: rest, assignments, privileged: spec.privileged ?? false, own, ...(writes.length ? { writes } : {}) };
}

/**
 * xargs's replace string (`-I R`, `-i`, `--replace[=R]`; the last one given):
 * words holding it are filled in at run time. `own`: xargs's words with its
 * options in their full spelling (unwrap's `own`).
 */
export function xargsReplace(own: readonly Word[]): string | undefined {
  let rep: string | undefined;
  for (let i = 1; i < own.length; i++) {
    const v = own[i]?.value ?? '';
    if (v === '-I') rep = own[++i]?.value;
    else if (v === '--replace') rep = '{}';
    else if (v.startsWith('--replace=')) rep = v.slice('--replace='.length);
  }
  return rep;
}

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'posh', 'yash']);

export type ShellRun = { readonly kind: 'body'; readonly body: Word } | { readonly kind: 'stdin' } | { readonly kind: 'script' } | { readonly kind: 'opaque'; readonly offending: string };

/** How `bash [options] [-c body | script] args` gets its commands. */
export function shellRun(words: readonly Word[]): ShellRun {
  let dashC = false;
  let stdin = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (!w) break;
    if (w.dynamic) return { kind: 'opaque', offending: w.text };
    const v = w.value;
    if (v === '--' || v === '-') {
      const next = words[i + 1];
      if (dashC) return next ? { kind: 'body', body: next } : { kind: 'opaque', offending: w.text };
      return next ? { kind: 'script' } : { kind: 'stdin' };
    }
    if (/^[-+]o$/.test(v) || v === '-O' || v === '+O' || v === '--rcfile' || v === '--init-file') {
      i++;
      continue;
    }
    if (/^-[a-zA-Z]+$/.test(v)) {
      dashC ||= v.includes('c');
      stdin ||= v.includes('s');
      continue;
    }
    if (v.startsWith('-') || v.startsWith('+')) continue;
    if (dashC) return { kind: 'body', body: w };
    return stdin ? { kind: 'stdin' } : { kind: 'script' };
  }
  return dashC ? { kind: 'opaque', offending: words.map((w) => w.text).join(' ') } : { kind: 'stdin' };
}

/** find's actions that run a command (up to `;` or `+`): it is checked as a command of its own. */
export const FIND_RUNS = ['-exec', '-execdir', '-ok', '-okdir'] as const;
/** find's actions that write: `-delete` its starting points (trees), the `-fprint` family the file they name. */
export const FIND_WRITES = ['-delete', '-fprint', '-fprint0', '-fprintf', '-fls'] as const;

/** `find ... -exec cmd {} ;` (and -execdir, -ok, -okdir): the commands find runs. */
export function findExecs(words: readonly Word[]): Word[][] {
  const out: Word[][] = [];
  const runs: readonly string[] = FIND_RUNS;
  for (let i = 1; i < words.length; i++) {
    if (!runs.includes(words[i]?.value ?? '')) continue;
    const cmd: Word[] = [];
    for (i++; i < words.length; i++) {
      const w = words[i];
      if (!w || (!w.dynamic && (w.value === ';' || w.value === '+'))) break;
      // find fills `{}` in at run time.
      cmd.push(w.value.includes('{}') ? { ...w, dynamic: true } : w);
    }
    out.push(cmd);
  }
  return out;
}

const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '-']);
const ALWAYS_WRITE = new Set([
  'cp', 'mv', 'rm', 'rmdir', 'touch', 'mkdir', 'ln', 'chmod', 'chown', 'chgrp', 'truncate', 'install', 'patch', 'rsync',
  'shred', 'unlink', 'mktemp', 'split', 'csplit', 'zip', 'mkfifo', 'mknod',
]);
/** Archivers and compressors: they write unless told only to list, test or print. */
const READ_MODES: Readonly<Record<string, RegExp>> = {
  tar: /^-?[^-]*t|^--(list|test-label)$/,
  unzip: /^-[^-]*[lvtpZ]/,
  gzip: /^-[^-]*[clt]|^--(stdout|list|test)$/,
  gunzip: /^-[^-]*[clt]|^--(stdout|list|test)$/,
  bzip2: /^-[^-]*[ct]|^--(stdout|test)$/,
  xz: /^-[^-]*[clt]|^--(stdout|list|test)$/,
};

/** Option words (or the word after) naming an output file. */
function outputTarget(words: readonly Word[], flags: readonly string[]): boolean {
  for (let i = 1; i < words.length; i++) {
    const v = words[i]?.value ?? '';
    for (const f of flags) {
      if (v === f) {
        const t = words[i + 1];
        if (!t || t.dynamic || !HARMLESS_TARGETS.has(t.value)) return true;
      } else if (f.startsWith('--') ? v.startsWith(`${f}=`) : v.startsWith(f) && !v.startsWith('--')) {
        const t = v.slice(f.length + (f.startsWith('--') ? 1 : 0));
        if (!HARMLESS_TARGETS.has(t)) return true;
      } else if (!f.startsWith('--') && /^-[a-zA-Z]+$/.test(v) && v.slice(2).includes(f.slice(1))) {
        // In a cluster (`curl -sSLo out`) the letter takes the rest of the cluster, or the next word.
        const rest = v.slice(v.indexOf(f.slice(1), 2) + 1);
        const t = rest === '' ? words[i + 1]?.value : rest;
        if (t === undefined || !HARMLESS_TARGETS.has(t)) return true;
      }
    }
  }
  return false;
}

/**
 * Does this command write files by itself (not through a redirect)? Known
 * file commands and the write options of commands an author may well allow
 * for reading (`sed -i`, `find -delete`, `curl -o`, `sort -o`, `tee`).
 */
export function writesFiles(words: readonly Word[]): boolean {
  const name = words[0]?.value ?? '';
  const args = words.slice(1);
  const opts = args.filter((w) => w.value.startsWith('-'));
  switch (name) {
    case 'tee': {
      // For tee, `-` and everything after `--` are file names.
      const end = args.findIndex((w) => w.value === '--');
      const files = args.filter((w, i) => (end >= 0 && i > end) || w.value === '-' || !w.value.startsWith('-'));
      return files.some((w) => w.dynamic || w.value === '-' || !HARMLESS_TARGETS.has(w.value));
    }
    case 'sed':
    case 'perl':
      return opts.some((w) => /^-[^-]*i/.test(w.value) || w.value.startsWith('--in-place'));
    case 'sort':
      return outputTarget(words, ['-o', '--output', '-T', '--temporary-directory']);
    case 'uniq':
      // `uniq IN OUT` writes OUT.
      return uniqOperands(args).slice(1, 2).some((w) => w.dynamic || !HARMLESS_TARGETS.has(w.value));
    case 'find':
      return args.some((w) => (FIND_WRITES as readonly string[]).includes(w.value));
    case 'curl':
      return (
        opts.some((w) => /^-[a-zA-Z]*[ODc]/.test(w.value) || /^--(remote-name|dump-header|cookie-jar|trace|libcurl|etag-save|hsts|alt-svc)/.test(w.value)) ||
        outputTarget(words, ['-o', '--output'])
      );
    case 'wget':
      return !args.some((w) => w.value === '--spider') && !/(?:^|\s)(?:-O|-qO|--output-document=?)\s?(?:-|\/dev\/null)(?:\s|$)/.test(args.map((w) => w.value).join(' '));
    case 'git':
      return writeTargets(words).length > 0;
    case 'dd':
      return args.some((w) => w.value.startsWith('of=') && !HARMLESS_TARGETS.has(w.value.slice(3)));
    default: {
      const reads = Object.hasOwn(READ_MODES, name) ? READ_MODES[name] : undefined;
      // tar's mode may come without a dash (`tar tf x.tar`): only its first argument.
      if (reads) return !args.some((w, i) => w.value.startsWith('-') || (name === 'tar' && i === 0) ? reads.test(w.value) : false);
      return ALWAYS_WRITE.has(name);
    }
  }
}

/** Paths a glob could reach the environment through (`/pro?/sel?/env*`). */
const ENVIRON_PATHS = ['/proc/self/environ', '/proc/1/environ', 'proc/self/environ', 'self/environ', 'environ', '../../proc/self/environ'];

function globRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? '';
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) re += '\\[';
      else {
        re += `[${glob.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else re += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * Does a word reach process information under /proc (where every process's
 * environment is readable), directly or through a glob (`/pro?/sel?/env*`)?
 */
export function touchesEnviron(w: Word): boolean {
  if (/\/proc(\/|$)/.test(w.value) || w.value.includes('environ')) return true;
  if (!w.dynamic) return false;
  const glob = globRegex(w.value);
  return ENVIRON_PATHS.some((p) => glob.test(p));
}

/** Builtins that set variables from `NAME=value` arguments. */
export const DECLARE: ReadonlySet<string> = new Set(['declare', 'typeset', 'local', 'readonly', 'export']);
const ENV_LISTERS = new Set(['env', 'printenv', 'set', 'compgen', 'ps']);

/**
 * Does this command read or list environment variables (with `blocked` names
 * to protect)? Returns the reason, or undefined.
 */
export function envReadReason(words: readonly Word[], blocked: readonly string[]): string | undefined {
  const name = words[0]?.value ?? '';
  const args = words.slice(1).map((w) => w.value);
  const names = args.filter((a) => !a.startsWith('-') && !a.startsWith('+'));
  const namesBlocked = names.some((n) => blocked.includes(n.split('=')[0] ?? ''));
  // `export $x-n`: a run-time word can be the option that makes it list everything.
  if ((DECLARE.has(name) || ENV_LISTERS.has(name)) && words.slice(1).some((w) => w.dynamic)) return 'its arguments are only known when it runs';
  switch (name) {
    case 'env':
      return 'it prints the environment';
    case 'printenv':
      return names.length === 0 || namesBlocked ? 'it prints environment variables' : undefined;
    case 'set':
      return args.length === 0 ? 'it prints every shell variable' : undefined;
    case 'compgen':
      return args.some((a) => /^-[a-zA-Z]*[ve]/.test(a) || a === '-A') ? 'it lists variable names' : undefined;
    case 'ps':
      return args.some((a) => !a.startsWith('-') && a.includes('e')) ? 'it prints processes’ environments' : undefined;
    default:
      if (!DECLARE.has(name)) return codeEnvReadReason(words);
      if (names.length === 0) return 'it lists variables';
      if (args.some((a) => /^-[a-zA-Z]*[pn]/.test(a))) return 'it prints or aliases variables';
      return namesBlocked ? 'it names a blocked variable' : undefined;
  }
}

/**
 * Assignments that change what a command runs or loads (search paths,
 * preloads, interpreter start-up hooks, pagers and editors git/npm invoke):
 * with `allowed_commands` in force they would turn an allowed command into
 * another one.
 */
const CODE_LOADING_VARS =
  /^(PATH|IFS|ENV|BASH_ENV|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|CDPATH|GLOBIGNORE|HOME|LD_\w+|DYLD_\w+|NODE_OPTIONS|NODE_PATH|PYTHON(STARTUP|PATH|HOME|USERBASE|INSPECT)|PERL5(OPT|LIB)|PERLLIB|RUBY(OPT|LIB)|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|CLASSPATH|GIT_\w+|PAGER|MANPAGER|EDITOR|VISUAL|BROWSER|SHELL|TERMINAL|npm_config_\w+|NPM_CONFIG_\w+|PIP_\w+|CARGO_\w+|RUSTC\w*|RUSTFLAGS|GOFLAGS|CC|CXX|MAKEFLAGS)$/i;

export function isCodeLoadingVar(name: string): boolean {
  return CODE_LOADING_VARS.test(name);
}
