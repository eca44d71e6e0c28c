/**
 * Which paths a file-writing command changes (commands.ts decides
 * *whether* it writes): the path rules (util/paths/write-guard.ts) check each one, so
 * `cp forged .claude/settings.json` and `rm -rf .github` are seen while
 * `cp ~/template.txt src/` does not count `~/template.txt` as written.
 *
 * A target is a word (its value may only be known at run time: then the
 * policy cannot place it) and whether everything under it may change
 * (`tree`: `rm -r`, `mv`, `cp -r`, an archive extracted into a folder).
 * Where a command's targets cannot be read off its arguments (files named
 * inside a patch or an archive), the folder it works in is the target, as a
 * tree. Unknown commands are not handled here: the caller knows they write
 * and that their targets are unknown.
 */
import type { Word } from './words';

export interface WriteTarget {
  readonly word: Word;
  readonly tree: boolean;
  /** Applies only when the path is not an existing folder (`cp a DEST`: into DEST/a when DEST is one). */
  readonly unlessFolder?: boolean;
  /** Relative to the temporary folder (`mktemp`), not the working folder. */
  readonly inTmp?: boolean;
  /**
   * git changing the working tree it runs in (`checkout BRANCH`, `pull`, `stash`...): everyday work
   * that brings in files of commits the agent can craft, so it may touch any file under it. Where the
   * kernel sandbox keeps every protected file read-only the policy lets it run (write-plan.ts).
   */
  readonly gitTree?: boolean;
}

interface Parsed {
  readonly operands: Word[];
  /** Option values by option name (`-o`, `--output`), each occurrence. */
  readonly values: Map<string, Word[]>;
  /** Flags given (`-r`, `--recursive`; the letters of a cluster one by one). */
  readonly flags: Set<string>;
}

const derived = (w: Word, value: string): Word => ({ ...w, value });
const here = (value: string): Word => ({ value, dynamic: false, text: value });
const basename = (p: string): string => p.replace(/\/+$/, '').split('/').pop() ?? '';
/** Something written whose path is only known when the command runs (`xargs rm`, `-exec rm {} ;`). */
export const UNKNOWN_TARGET: Word = { value: '', dynamic: true, text: '(a path only known when it runs)' };

/**
 * GNU-style arguments: `--` ends options; `--name=value`; options in
 * `withArg` take the next word; in a cluster (`-cvf F`) the first letter that
 * takes a value takes the rest of the cluster or the next word.
 */
function parse(args: readonly Word[], withArg: readonly string[]): Parsed {
  const operands: Word[] = [];
  const values = new Map<string, Word[]>();
  const flags = new Set<string>();
  const put = (name: string, w: Word | undefined): void => {
    values.set(name, [...(values.get(name) ?? []), w ?? UNKNOWN_TARGET]);
  };
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (w.dynamic || !v.startsWith('-') || v === '-') {
      operands.push(w);
      continue;
    }
    if (v === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      // getopt_long takes any unique prefix (`--target .claude` is --target-directory): a prefix of an option with a value takes the next word.
      if (eq > 0) put(v.slice(0, eq), derived(w, v.slice(eq + 1)));
      else if (withArg.some((o) => o.startsWith('--') && o.startsWith(v) && v.length > 2)) put(v, args[++i]);
      else flags.add(v);
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const opt = `-${v[j]}`;
      if (!withArg.includes(opt)) {
        flags.add(opt);
        continue;
      }
      put(opt, j + 1 < v.length ? derived(w, v.slice(j + 1)) : args[++i]);
      break;
    }
  }
  return { operands, values, flags };
}

/** Whether `given` (as written) names the option `name`: itself, or a prefix of a long one (`--recur` is --recursive). */
const names = (given: string, name: string): boolean => given === name || (name.startsWith('--') && given.startsWith('--') && given.length > 2 && name.startsWith(given));
const has = (p: Parsed, ...wanted: string[]): boolean => wanted.some((n) => [...p.flags, ...p.values.keys()].some((g) => names(g, n)));
const valuesOf = (p: Parsed, ...wanted: string[]): Word[] => [...p.values].filter(([g]) => wanted.some((n) => names(g, n))).flatMap(([, ws]) => ws);
const asTargets = (words: readonly Word[], tree: boolean): WriteTarget[] => words.map((word) => ({ word, tree }));

/** uniq's operands (INPUT, OUTPUT), its options given in full (option-risks.ts canonicalCommand). */
export function uniqOperands(args: readonly Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (!w.dynamic && w.value === '--') return [...out, ...args.slice(i + 1)];
    if (w.dynamic || !w.value.startsWith('-') || w.value === '-') out.push(w);
    else if (['--skip-fields', '--skip-chars', '--check-chars'].includes(w.value)) i++;
  }
  return out;
}

/** cp, mv, ln, install: DEST (or `-t DIR`), and DEST/basename(SOURCE) for each source. */
function copyLike(p: Parsed, tree: boolean, sourcesChange: boolean): WriteTarget[] {
  const dir = valuesOf(p, '-t', '--target-directory')[0];
  const sources = dir ? p.operands : p.operands.slice(0, -1);
  const dest = dir ?? p.operands[p.operands.length - 1];
  if (!dest) return [];
  // `-T` (--no-target-directory): DEST is the target itself even when it is a folder (`cp -rT evil .claude` fills .claude).
  if (!dir && has(p, '-T', '--no-target-directory')) return [{ word: dest, tree }, ...(sourcesChange ? asTargets(sources, true) : [])];
  const out: WriteTarget[] = dir ? [] : [{ word: dest, tree, unlessFolder: true }];
  for (const s of sources) {
    // `~/a/x` or `"$D"/x` still ends in the name `x`: only a run-time part in the last segment hides it.
    const name = basename(s.value);
    const dynamic = dest.dynamic || (s.dynamic && /[$`*?[\]{}~]/.test(name));
    out.push({ word: { value: `${dest.value}/${name}`, dynamic, text: `${dest.text}/${name}` }, tree });
    if (sourcesChange) out.push({ word: s, tree: true });
  }
  return out;
}

/** The folder a command writes named-inside-its-input files into: `-C DIR` style or the working folder. */
function folder(p: Parsed, ...names: string[]): WriteTarget {
  return { word: valuesOf(p, ...names).pop() ?? here('.'), tree: true };
}

/** `curl -O` / `wget` with no output name: the URL's last path segment, in DIR or the working folder. */
function fromUrl(url: Word, dir: Word | undefined): WriteTarget {
  const base = dir ?? here('.');
  if (url.dynamic) return { word: UNKNOWN_TARGET, tree: false };
  let name = '';
  try {
    name = basename(new URL(url.value).pathname);
  } catch {
    name = '';
  }
  return name ? { word: { ...base, value: `${base.value}/${name}` }, tree: false } : { word: base, tree: true };
}

/** tar's options that take a value, by letter (the old style's letters take the next words in order). */
const TAR_LETTERS_WITH_VALUE = 'fCTXbHVgIKLNF';

function tarTargets(args: readonly Word[]): WriteTarget[] {
  // The mode letters may come without a dash in the first argument (`tar xzf a.tgz`, `tar cfC a.tar out`):
  // each letter is an option of its own, and each that takes a value takes the next word.
  const first = args[0];
  let dashless = args;
  if (first && !first.dynamic && !first.value.startsWith('-')) {
    const out: Word[] = [];
    let next = 1;
    for (const c of first.value) {
      out.push(derived(first, `-${c}`));
      if (TAR_LETTERS_WITH_VALUE.includes(c)) out.push(args[next++] ?? UNKNOWN_TARGET);
    }
    dashless = [...out, ...args.slice(next)];
  }
  const p = parse(dashless, ['-f', '--file', '-C', '--directory', '-T', '--files-from', '-X', '--exclude-from', '-b', '-H', '--format', '-V', '--label', '-g', '--listed-incremental', '-I', '--use-compress-program', '-F', '--info-script', '-K', '-L', '-N']);
  const archive = valuesOf(p, '-f', '--file');
  const out: WriteTarget[] = [];
  if (has(p, '-c', '--create', '-r', '--append', '-u', '--update', '-A', '--concatenate', '--delete')) out.push(...asTargets(archive, false));
  if (has(p, '--remove-files')) out.push(...asTargets(p.operands, true));
  if (has(p, '-x', '--extract', '--get') && !has(p, '-O', '--to-stdout')) {
    // With -P, names in the archive may be absolute: anything.
    out.push(has(p, '-P', '--absolute-names') ? { word: here('/'), tree: true } : folder(p, '-C', '--directory'));
  }
  return out;
}

function sedTargets(args: readonly Word[], scriptFiles: readonly string[]): WriteTarget[] {
  const p = parse(args, ['-e', '--expression', '-f', '--file', '-l', '--line-length']);
  // Without -e/-f the first operand is the script.
  const files = has(p, '-e', '--expression', '-f', '--file') ? p.operands : p.operands.slice(1);
  return [...asTargets(files, false), ...scriptFiles.map((f) => ({ word: here(f), tree: false }))];
}

function perlTargets(args: readonly Word[]): WriteTarget[] {
  const p = parse(args, ['-e', '-E', '-I', '-M', '-m', '-F', '-x', '-0', '-l', '-C', '-d', '-D']);
  const files = has(p, '-e', '-E') ? p.operands : p.operands.slice(1);
  return asTargets(files, false);
}

/**
 * The targets of a command that writes files (`words[0]` is its name, words
 * after quote removal). `sedFiles`: the files a sed script's `w` commands write.
 */
export function writeTargets(words: readonly Word[], sedFiles: readonly string[] = []): WriteTarget[] {
  const name = words[0]?.value ?? '';
  const args = words.slice(1);
  switch (name) {
    case 'cp': {
      const p = parse(args, ['-t', '--target-directory', '-S', '--suffix']);
      return copyLike(p, has(p, '-r', '-R', '-a', '--recursive', '--archive'), false);
    }
    case 'mv':
      return copyLike(parse(args, ['-t', '--target-directory', '-S', '--suffix']), true, true);
    case 'ln':
      return copyLike(parse(args, ['-t', '--target-directory', '-S', '--suffix']), false, false);
    case 'install': {
      const p = parse(args, ['-t', '--target-directory', '-S', '--suffix', '-m', '--mode', '-o', '--owner', '-g', '--group']);
      return has(p, '-d', '--directory') ? asTargets(p.operands, false) : copyLike(p, false, false);
    }
    case 'rsync': {
      const p = parse(args, ['-e', '--rsh', '-f', '--filter', '-T', '--temp-dir', '-B', '--block-size', '-M', '--remote-option', '--exclude', '--include', '--exclude-from', '--include-from', '--files-from', '--log-file', '--partial-dir', '--backup-dir', '--suffix', '--chmod', '--compare-dest', '--copy-dest', '--link-dest']);
      const dest = p.operands[p.operands.length - 1];
      const sources = has(p, '--remove-source-files') ? asTargets(p.operands.slice(0, -1), true) : [];
      return dest ? [{ word: dest, tree: true }, ...sources] : [];
    }
    case 'rm': {
      const p = parse(args, []);
      return asTargets(p.operands, has(p, '-r', '-R', '--recursive'));
    }
    case 'chmod':
    case 'chown':
    case 'chgrp': {
      // chmod's `-r` is a mode (`chmod -r f`), not --recursive.
      const p = parse(args, ['--reference', '--from']);
      return asTargets(p.operands, has(p, '-R', '--recursive'));
    }
    case 'rmdir':
    case 'unlink':
    case 'touch':
    case 'truncate':
    case 'mkdir':
    case 'mkfifo':
    case 'mknod':
    case 'shred':
      return asTargets(parse(args, ['-d', '--date', '-t', '-r', '--reference', '-s', '--size', '-m', '--mode', '-n', '--iterations', '--random-source', '-Z', '--context']).operands, false);
    case 'mktemp': {
      // `--tmpdir[=DIR]` takes its value only after `=`.
      const p = parse(args, ['-p', '--suffix']);
      const template = p.operands[0] ?? here('tmp.XXXXXXXXXX');
      const dir = valuesOf(p, '-p', '--tmpdir')[0];
      if (dir) return [{ word: { ...dir, value: `${dir.value}/${template.value}`, dynamic: dir.dynamic || template.dynamic }, tree: false }];
      return [{ word: template, tree: false, ...(p.operands[0] && !has(p, '-t', '--tmpdir') ? {} : { inTmp: true }) }];
    }
    case 'split':
    case 'csplit': {
      const p = parse(args, ['-a', '--suffix-length', '-b', '--bytes', '-C', '--line-bytes', '-l', '--lines', '-n', '--number', '-t', '--separator', '--additional-suffix', '--filter', '-f', '--prefix', '--suffix-format']);
      if (name === 'csplit') return [{ word: valuesOf(p, '-f', '--prefix')[0] ?? here('xx'), tree: false }];
      return [{ word: p.operands[1] ?? here('x'), tree: false }];
    }
    case 'zip': {
      const p = parse(args, ['-b', '-n', '-t', '-tt', '-x', '-i', '-O', '--out']);
      const [archive, ...rest] = p.operands;
      return [...(archive ? [{ word: archive, tree: false }] : []), ...asTargets(valuesOf(p, '-O', '--out'), false), ...(has(p, '-m', '--move') ? asTargets(rest, true) : [])];
    }
    case 'patch': {
      const p = parse(args, ['-o', '--output', '-d', '--directory', '-i', '--input', '-p', '--strip', '-r', '--reject-file', '-B', '--prefix', '-z', '--suffix', '-D', '--ifdef', '-F', '--fuzz']);
      const out = asTargets([...valuesOf(p, '-o', '--output'), ...valuesOf(p, '-r', '--reject-file')], false);
      // Without a file to patch, the names come from the diff: anything in its folder.
      return [...out, p.operands[0] ? { word: p.operands[0], tree: false } : folder(p, '-d', '--directory')];
    }
    case 'tar':
      return tarTargets(args);
    case 'unzip': {
      const p = parse(args, ['-d', '-x', '-P']);
      return [p.flags.has('-:') ? { word: here('/'), tree: true } : folder(p, '-d')];
    }
    case 'gzip':
    case 'gunzip':
    case 'bzip2':
    case 'xz': {
      // FILE is replaced by FILE.gz (or the reverse): both names change.
      const p = parse(args, ['-S', '--suffix', '-T', '--threads', '--format', '-F', '-C', '--check', '-M', '--memlimit']);
      const tree = has(p, '-r', '--recursive');
      return p.operands.flatMap((w) => [{ word: w, tree }, { word: derived(w, w.value.replace(/\.[^./]+$/, '')), tree }]);
    }
    case 'tee':
      return asTargets(parse(args, ['--output-error']).operands.filter((w) => w.value !== '-' || w.dynamic), false);
    case 'sed':
      return sedTargets(args, sedFiles);
    case 'perl':
      return perlTargets(args);
    case 'sort': {
      const p = parse(args, ['-o', '--output', '-k', '--key', '-t', '--field-separator', '-T', '--temporary-directory', '-S', '--buffer-size']);
      // `-T DIR`: its temporary files, under names it picks, anywhere in DIR.
      return [...asTargets(valuesOf(p, '-o', '--output'), false), ...asTargets(valuesOf(p, '-T', '--temporary-directory'), true)];
    }
    case 'uniq':
      return asTargets(uniqOperands(args).slice(1, 2).filter((w) => w.dynamic || w.value !== '-'), false);
    case 'find':
      return findTargets(args);
    case 'curl': {
      const fileOpts = ['-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar', '--trace', '--trace-ascii', '--libcurl', '--etag-save', '--hsts', '--alt-svc', '--stderr'];
      const p = parse(args, [...fileOpts, '--output-dir', '-d', '--data', '-H', '--header', '-u', '--user', '-X', '--request', '-A', '--user-agent', '-e', '--referer', '-b', '--cookie', '-F', '--form', '-T', '--upload-file', '-x', '--proxy', '-w', '--write-out', '-m', '--max-time', '-K', '--config', '-r', '--range', '-E', '--cert', '--connect-timeout', '--retry']);
      const named = asTargets(valuesOf(p, ...fileOpts).filter((w) => w.dynamic || !['-', '/dev/null', '/dev/stdout', '/dev/stderr'].includes(w.value)), false);
      const remote = has(p, '-O', '--remote-name', '--remote-name-all') ? p.operands.map((u) => fromUrl(u, valuesOf(p, '--output-dir')[0])) : [];
      return [...named, ...remote];
    }
    case 'wget': {
      const p = parse(args, ['-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '-P', '--directory-prefix', '-e', '--execute', '-U', '--user-agent', '-t', '--tries', '-T', '--timeout', '-i', '--input-file', '-l', '--level', '-A', '--accept', '-R', '--reject', '--header']);
      const out = asTargets([...valuesOf(p, '-O', '--output-document'), ...valuesOf(p, '-o', '--output-file', '-a', '--append-output')].filter((w) => w.dynamic || !['-', '/dev/null'].includes(w.value)), false);
      if (p.values.has('-O') || p.values.has('--output-document')) return out;
      const dir = valuesOf(p, '-P', '--directory-prefix')[0];
      if (has(p, '-r', '--recursive', '-m', '--mirror', '-p', '--page-requisites', '-i', '--input-file')) return [...out, { word: dir ?? here('.'), tree: true }];
      return [...out, ...p.operands.map((u) => fromUrl(u, dir))];
    }
    case 'git':
      return gitTargets(args);
    case 'dd':
      return args.filter((w) => w.value.startsWith('of=') && !['of=/dev/null', 'of=/dev/stdout', 'of=/dev/stderr'].includes(w.value)).map((w) => ({ word: derived(w, w.value.slice(3)), tree: false }));
    default:
      return [{ word: UNKNOWN_TARGET, tree: true }];
  }
}

const WHOLE_TREE: WriteTarget = { word: here('.'), tree: true, gitTree: true };

/**
 * git: `--output F`, and the subcommands that change the working tree, as
 * writes to the paths they name: `rm`, `mv`, `restore`, `checkout [REV] --
 * PATHS`; the whole tree (the folder git runs in) for `checkout BRANCH`,
 * `switch`, `reset --hard/--merge/--keep`, `stash` (push, pop, apply),
 * `clean`, `apply`, `am`, `cherry-pick`, `revert`, `merge`, `pull`,
 * `rebase`, `bisect`, `read-tree -u`, `checkout-index`; `worktree add DIR`. Reading and recording (`status`,
 * `diff`, `log`, `add`, `commit`) change no file of the tree.
 */
function gitTargets(args: readonly Word[]): WriteTarget[] {
  // Options before the subcommand: -C DIR moves where paths are taken from; another work tree is unknown.
  let i = 0;
  let dir: Word | undefined;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (args[i]!.dynamic || !v.startsWith('-')) break;
    if (v === '-C') dir = args[++i];
    else if (v === '-c' || v === '--git-dir' || v === '--namespace' || v === '--super-prefix' || v === '--config-env') i++;
    else if (v === '--work-tree' || v.startsWith('--work-tree=')) return [{ word: UNKNOWN_TARGET, tree: true }];
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  const out = asTargets(valuesOf(parse(args, ['--output', '-C', '-c']), '--output'), false);
  if (!sub) return out;
  const inDir = (t: WriteTarget): WriteTarget => (dir && !t.word.value.startsWith('/') ? { ...t, word: { ...t.word, value: `${dir.value}/${t.word.value}`, dynamic: t.word.dynamic || dir.dynamic, text: `${dir.text}/${t.word.text}` } } : t);
  const p = parse(rest, ['-m', '--message', '-b', '-B', '-c', '-C', '--orphan', '-s', '--source', '--pathspec-from-file', '-e', '--exclude', '-x', '-X', '-p', '--patch']);
  const afterDashDash = (): Word[] => {
    const at = rest.findIndex((w) => !w.dynamic && w.value === '--');
    return at < 0 ? [] : rest.slice(at + 1);
  };
  const found = ((): WriteTarget[] => {
    if (sub.dynamic) return [{ word: UNKNOWN_TARGET, tree: true }];
    switch (sub.value) {
      case 'rm':
        return has(p, '--cached') ? [] : asTargets(p.operands, has(p, '-r'));
      case 'mv':
        return copyLike(p, true, true);
      case 'restore':
        // Only --staged: the index, not the files.
        return has(p, '--staged', '-S') && !has(p, '--worktree', '-W') ? [] : asTargets(p.operands, true);
      case 'checkout': {
        const paths = afterDashDash();
        if (paths.length > 0) return asTargets(paths, true);
        // `checkout -b NAME` alone starts a branch where HEAD is: no file changes.
        if (has(p, '-b', '-B', '--orphan') && p.operands.length === 0) return [];
        return p.operands.length > 0 || has(p, '-f', '--force', '-m', '--merge') ? [WHOLE_TREE] : [];
      }
      case 'switch':
        return has(p, '-c', '-C', '--create', '--force-create') && p.operands.length === 0 ? [] : [WHOLE_TREE];
      case 'reset':
        return has(p, '--hard', '--merge', '--keep') ? [WHOLE_TREE] : [];
      case 'stash': {
        const op = p.operands[0]?.value;
        return op === undefined || ['push', 'save', 'pop', 'apply', 'branch'].includes(op) ? [WHOLE_TREE] : [];
      }
      case 'clean':
        return has(p, '-n', '--dry-run') ? [] : p.operands.length > 0 ? asTargets(p.operands, true) : [WHOLE_TREE];
      case 'apply':
        return has(p, '--check', '--stat', '--numstat', '--summary', '--cached') && !has(p, '--index') ? [] : [WHOLE_TREE];
      case 'am':
      case 'cherry-pick':
      case 'revert':
      case 'merge':
      case 'pull':
      case 'rebase':
      case 'checkout-index':
        // They bring other commits' files (which the agent can make without touching a file: commit-tree) into the tree.
        return [WHOLE_TREE];
      case 'read-tree':
        return has(p, '-u', '--reset') ? [WHOLE_TREE] : [];
      case 'bisect':
        return ['log', 'view', 'visualize', 'terminology', 'help'].includes(p.operands[0]?.value ?? '') ? [] : [WHOLE_TREE];
      case 'worktree':
        return p.operands[0]?.value === 'add' && p.operands[1] ? [{ word: p.operands[1], tree: true }] : p.operands[0]?.value === 'remove' ? asTargets(p.operands.slice(1), true) : [];
      default:
        return [];
    }
  })();
  return [...out, ...found.map(inDir)];
}

/** find: with -delete the starting points as trees; `-fprint F` and friends write F. */
function findTargets(args: readonly Word[]): WriteTarget[] {
  let i = 0;
  while (i < args.length && /^-[HLP]+$|^-D$|^-O\d*$/.test(args[i]!.value)) i += args[i]!.value === '-D' ? 2 : 1;
  const roots: Word[] = [];
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (!args[i]!.dynamic && (v.startsWith('-') || v === '(' || v === '!' || v === ')')) break;
    roots.push(args[i]!);
  }
  const out: WriteTarget[] = [];
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '-delete') out.push(...asTargets(roots.length ? roots : [here('.')], true));
    if (['-fprint', '-fprint0', '-fls', '-fprintf'].includes(v)) out.push({ word: args[i + 1] ?? UNKNOWN_TARGET, tree: false });
  }
  return out;
}

/** A write the shell analysis reports: the target and the command text that writes it (for messages). */
export interface ShellWrite extends WriteTarget {
  readonly how: string;
}

/** `env -C DIR cmd` / `env --chdir=DIR cmd`: the wrapped command runs in DIR. */
export function envChdir(words: readonly Word[]): DirChange | undefined {
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === '-C' || v === '--chdir') return { to: words[i + 1] ?? UNKNOWN_TARGET };
    if (v.startsWith('--chdir=')) return { to: derived(words[i]!, v.slice('--chdir='.length)) };
    if (/^-[a-zA-Z]*C./.test(v)) return { to: derived(words[i]!, v.slice(v.indexOf('C') + 1)) };
    if (v === '-u' || v === '--unset') i++;
    else if (words[i]!.dynamic || !(v.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(v))) break;
  }
  return undefined;
}

/** `cd DIR` / `pushd DIR` / `popd` / `env -C DIR`: where later relative paths are taken from. */
export type DirChange = { readonly to: Word } | { readonly unknown: true };

/** The directory change a command makes (cd, pushd, popd), or undefined when it makes none. */
export function dirChange(words: readonly Word[]): DirChange | undefined {
  const name = words[0]?.value;
  if (name !== 'cd' && name !== 'pushd' && name !== 'popd') return undefined;
  if (words[0]?.dynamic) return { unknown: true };
  const args = words.slice(1).filter((w, i, all) => w.dynamic || !w.value.startsWith('-') || w.value === '-' || (i > 0 && all[i - 1]?.value === '--'));
  // popd and `cd -` go back to a folder already taken: no new one.
  if (name === 'popd' || args[0]?.value === '-') return { to: here('.') };
  const to = args[0];
  if (!to) return { to: { value: '~', dynamic: true, text: '~' } };
  // `pushd +N` rotates the stack to a folder already taken.
  if (name === 'pushd' && !to.dynamic && /^[+-]\d+$/.test(to.value)) return { to: here('.') };
  return { to };
}
