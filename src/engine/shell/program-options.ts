/**
 * Every option of the wrappers (programs that run another command) and the
 * writers (programs that write files an author may allow for reading:
 * `sort`, `sed`, `uniq`, `tee`) that stategate reads with getopt.ts, the way
 * the programs themselves read them (GNU coreutils 9.1, findutils 4.9, sed
 * 4.9: their `--help` on the machine this was written on); the file
 * commands' tables are in file-options.ts, sudo's and doas's in
 * sudo-options.ts, bash's exec/command/builtin in builtin-options.ts. Data only, one
 * table per program, reviewed as a list: an option not listed here is denied
 * under allowed_commands (it may be one a newer version added), so a table
 * must be complete for the options everyday work uses.
 *
 * `means`: `runs` (the program runs a program or shell text the option gives:
 * the command cannot be checked), `writes` (the option's argument is a file
 * it writes: write-targets.ts reports it), absent: harmless.
 */
import { BUILTIN_OPTIONS, COMMAND_OPTIONS, EXEC_OPTIONS } from './builtin-options';
import { FILE_OPTIONS } from './file-options';
import { DOAS_OPTIONS, SUDO_OPTIONS } from './sudo-options';
import type { OptionSpec, ProgramOptions } from './option-spec';

export { FILE_OPTIONS } from './file-options';

const HELP: OptionSpec[] = [
  { long: ['help'], arg: 'none' },
  { long: ['version'], arg: 'none' },
];

export const ENV_OPTIONS: ProgramOptions = {
  program: 'env',
  names: ['env'],
  permute: false,
  options: [
    { long: ['ignore-environment'], short: 'i', arg: 'none' },
    { long: ['null'], short: '0', arg: 'none' },
    { long: ['unset'], short: 'u', arg: 'required' },
    { long: ['chdir'], short: 'C', arg: 'required' },
    { long: ['split-string'], short: 'S', arg: 'required', means: 'runs', why: 'splits its argument into a command line that env runs (`env -S "sh -c ..."`)' },
    { long: ['block-signal'], arg: 'optional' },
    { long: ['default-signal'], arg: 'optional' },
    { long: ['ignore-signal'], arg: 'optional' },
    { long: ['list-signal-handling'], arg: 'none' },
    { long: ['debug'], short: 'v', arg: 'none' },
    ...HELP,
  ],
};

export const XARGS_OPTIONS: ProgramOptions = {
  program: 'xargs',
  names: ['xargs'],
  permute: false,
  options: [
    { long: ['null'], short: '0', arg: 'none' },
    { long: ['arg-file'], short: 'a', arg: 'required' },
    { long: ['delimiter'], short: 'd', arg: 'required' },
    { short: 'E', arg: 'required' },
    { long: ['eof'], short: 'e', arg: 'optional' },
    { short: 'I', arg: 'required' },
    { long: ['replace'], short: 'i', arg: 'optional' },
    { short: 'L', arg: 'required' },
    { long: ['max-lines'], short: 'l', arg: 'optional' },
    { long: ['max-args'], short: 'n', arg: 'required' },
    { long: ['open-tty'], short: 'o', arg: 'none' },
    { long: ['max-procs'], short: 'P', arg: 'required' },
    { long: ['interactive'], short: 'p', arg: 'none' },
    { long: ['process-slot-var'], arg: 'required' },
    { long: ['no-run-if-empty'], short: 'r', arg: 'none' },
    { long: ['max-chars'], short: 's', arg: 'required' },
    { long: ['show-limits'], arg: 'none' },
    { long: ['verbose'], short: 't', arg: 'none' },
    { long: ['exit'], short: 'x', arg: 'none' },
    ...HELP,
  ],
};

export const TIMEOUT_OPTIONS: ProgramOptions = {
  program: 'timeout',
  names: ['timeout'],
  permute: false,
  options: [
    { long: ['preserve-status'], arg: 'none' },
    { long: ['foreground'], arg: 'none' },
    { long: ['kill-after'], short: 'k', arg: 'required' },
    { long: ['signal'], short: 's', arg: 'required' },
    { long: ['verbose'], short: 'v', arg: 'none' },
    ...HELP,
  ],
};

export const NICE_OPTIONS: ProgramOptions = {
  program: 'nice',
  names: ['nice'],
  permute: false,
  numeric: true,
  options: [{ long: ['adjustment'], short: 'n', arg: 'required' }, ...HELP],
};

export const NOHUP_OPTIONS: ProgramOptions = { program: 'nohup', names: ['nohup'], permute: false, options: HELP };

export const STDBUF_OPTIONS: ProgramOptions = {
  program: 'stdbuf',
  names: ['stdbuf'],
  permute: false,
  options: [
    { long: ['input'], short: 'i', arg: 'required' },
    { long: ['output'], short: 'o', arg: 'required' },
    { long: ['error'], short: 'e', arg: 'required' },
    ...HELP,
  ],
};

export const SETSID_OPTIONS: ProgramOptions = {
  program: 'setsid',
  names: ['setsid'],
  permute: false,
  options: [
    { long: ['ctty'], short: 'c', arg: 'none' },
    { long: ['fork'], short: 'f', arg: 'none' },
    { long: ['wait'], short: 'w', arg: 'none' },
    { long: ['help'], short: 'h', arg: 'none' },
    { long: ['version'], short: 'V', arg: 'none' },
  ],
};

/** GNU time (`\time`, `command time`; bash's own `time` keyword takes only -p, and stategate reads both the same way). */
export const TIME_OPTIONS: ProgramOptions = {
  program: 'time',
  names: ['time'],
  permute: false,
  options: [
    { long: ['format'], short: 'f', arg: 'required' },
    { long: ['portability'], short: 'p', arg: 'none' },
    { long: ['output'], short: 'o', arg: 'required', means: 'writes', why: 'writes the timings to the file it names' },
    { long: ['append'], short: 'a', arg: 'none' },
    { long: ['verbose'], short: 'v', arg: 'none' },
    { long: ['quiet'], short: 'q', arg: 'none' },
    { long: ['help'], arg: 'none' },
    { long: ['version'], short: 'V', arg: 'none' },
  ],
};

export const FLOCK_OPTIONS: ProgramOptions = {
  program: 'flock',
  names: ['flock'],
  permute: false,
  options: [
    { long: ['shared'], short: 's', arg: 'none' },
    { long: ['exclusive'], short: 'xe', arg: 'none' },
    { long: ['unlock'], short: 'u', arg: 'none' },
    { long: ['nonblock', 'nb'], short: 'n', arg: 'none' },
    { long: ['timeout', 'wait'], short: 'w', arg: 'required' },
    { long: ['conflict-exit-code'], short: 'E', arg: 'required' },
    { long: ['close'], short: 'o', arg: 'none' },
    { long: ['command'], short: 'c', arg: 'required', means: 'runs', why: 'runs the shell text it gives (after the lock file it is read as a shell command: `flock F -c "make test"`)' },
    { long: ['no-fork'], short: 'F', arg: 'none' },
    { long: ['verbose'], arg: 'none' },
    { long: ['help'], short: 'h', arg: 'none' },
    { long: ['version'], short: 'V', arg: 'none' },
  ],
};

export const WATCH_OPTIONS: ProgramOptions = {
  program: 'watch',
  names: ['watch'],
  permute: false,
  options: [
    { long: ['beep'], short: 'b', arg: 'none' },
    { long: ['color'], short: 'c', arg: 'none' },
    { long: ['no-color'], short: 'C', arg: 'none' },
    { long: ['differences'], short: 'd', arg: 'optional' },
    { long: ['errexit'], short: 'e', arg: 'none' },
    { long: ['chgexit'], short: 'g', arg: 'none' },
    { long: ['equexit'], short: 'q', arg: 'required' },
    { long: ['interval'], short: 'n', arg: 'required' },
    { long: ['precise'], short: 'p', arg: 'none' },
    { long: ['no-rerun'], short: 'r', arg: 'none' },
    { long: ['no-title'], short: 't', arg: 'none' },
    { long: ['no-wrap'], short: 'w', arg: 'none' },
    // Without it watch joins its words and runs them with `sh -c`: they are read as shell text.
    { long: ['exec'], short: 'x', arg: 'none' },
    { long: ['help'], short: 'h', arg: 'none' },
    { long: ['version'], short: 'v', arg: 'none' },
  ],
};

export const CHROOT_OPTIONS: ProgramOptions = {
  program: 'chroot',
  names: ['chroot'],
  permute: false,
  options: [{ long: ['groups'], arg: 'required' }, { long: ['userspec'], arg: 'required' }, { long: ['skip-chdir'], arg: 'none' }, ...HELP],
};

export const SORT_OPTIONS: ProgramOptions = {
  program: 'sort',
  names: ['sort'],
  permute: true,
  options: [
    { long: ['ignore-leading-blanks'], short: 'b', arg: 'none' },
    { long: ['dictionary-order'], short: 'd', arg: 'none' },
    { long: ['ignore-case'], short: 'f', arg: 'none' },
    { long: ['general-numeric-sort'], short: 'g', arg: 'none' },
    { long: ['ignore-nonprinting'], short: 'i', arg: 'none' },
    { long: ['month-sort'], short: 'M', arg: 'none' },
    { long: ['human-numeric-sort'], short: 'h', arg: 'none' },
    { long: ['numeric-sort'], short: 'n', arg: 'none' },
    { long: ['random-sort'], short: 'R', arg: 'none' },
    { long: ['random-source'], arg: 'required' },
    { long: ['reverse'], short: 'r', arg: 'none' },
    { long: ['sort'], arg: 'required' },
    { long: ['version-sort'], short: 'V', arg: 'none' },
    { long: ['batch-size'], arg: 'required' },
    { long: ['check'], short: 'cC', arg: 'optional' },
    { long: ['compress-program'], arg: 'required', means: 'runs', why: 'sort runs the program it names to compress its temporary files' },
    { long: ['debug'], arg: 'none' },
    { long: ['files0-from'], arg: 'required' },
    { long: ['key'], short: 'k', arg: 'required' },
    { long: ['merge'], short: 'm', arg: 'none' },
    { long: ['output'], short: 'o', arg: 'required', means: 'writes', why: 'writes the sorted lines to the file it names' },
    { long: ['stable'], short: 's', arg: 'none' },
    { long: ['buffer-size'], short: 'S', arg: 'required' },
    { long: ['field-separator'], short: 't', arg: 'required' },
    { long: ['temporary-directory'], short: 'T', arg: 'required', means: 'writes', why: 'writes its temporary files into the folder it names (a tree)' },
    { long: ['parallel'], arg: 'required' },
    { long: ['unique'], short: 'u', arg: 'none' },
    { long: ['zero-terminated'], short: 'z', arg: 'none' },
    ...HELP,
  ],
};

export const SED_OPTIONS: ProgramOptions = {
  program: 'sed',
  names: ['sed'],
  permute: true,
  options: [
    { long: ['quiet', 'silent'], short: 'n', arg: 'none' },
    { long: ['debug'], arg: 'none' },
    { long: ['expression'], short: 'e', arg: 'required' },
    { long: ['file'], short: 'f', arg: 'required' },
    { long: ['follow-symlinks'], arg: 'none' },
    { long: ['in-place'], short: 'i', arg: 'optional', means: 'writes', why: 'rewrites the files it reads' },
    { long: ['line-length'], short: 'l', arg: 'required' },
    { long: ['posix'], arg: 'none' },
    { long: ['regexp-extended'], short: 'Er', arg: 'none' },
    { long: ['separate'], short: 's', arg: 'none' },
    { long: ['sandbox'], arg: 'none' },
    { long: ['unbuffered'], short: 'u', arg: 'none' },
    { long: ['null-data', 'zero-terminated'], short: 'z', arg: 'none' },
    ...HELP,
  ],
};

export const UNIQ_OPTIONS: ProgramOptions = {
  program: 'uniq',
  names: ['uniq'],
  permute: true,
  options: [
    { long: ['count'], short: 'c', arg: 'none' },
    { long: ['repeated'], short: 'd', arg: 'none' },
    { short: 'D', arg: 'none' },
    { long: ['all-repeated'], arg: 'optional' },
    { long: ['skip-fields'], short: 'f', arg: 'required' },
    { long: ['group'], arg: 'optional' },
    { long: ['ignore-case'], short: 'i', arg: 'none' },
    { long: ['skip-chars'], short: 's', arg: 'required' },
    { long: ['unique'], short: 'u', arg: 'none' },
    { long: ['zero-terminated'], short: 'z', arg: 'none' },
    { long: ['check-chars'], short: 'w', arg: 'required' },
    ...HELP,
  ],
};

export const TEE_OPTIONS: ProgramOptions = {
  program: 'tee',
  names: ['tee'],
  permute: true,
  options: [
    { long: ['append'], short: 'a', arg: 'none' },
    { long: ['ignore-interrupts'], short: 'i', arg: 'none' },
    { short: 'p', arg: 'none' },
    { long: ['output-error'], arg: 'optional' },
    ...HELP,
  ],
};

/** The wrappers read with a table here and in sudo-options.ts, builtin-options.ts (commands.ts WRAPPERS names the rest). */
export const WRAPPER_OPTIONS: readonly ProgramOptions[] = [
  TIME_OPTIONS, ENV_OPTIONS, XARGS_OPTIONS, TIMEOUT_OPTIONS, NICE_OPTIONS, NOHUP_OPTIONS, STDBUF_OPTIONS, SETSID_OPTIONS, FLOCK_OPTIONS, WATCH_OPTIONS, CHROOT_OPTIONS,
  SUDO_OPTIONS, DOAS_OPTIONS, EXEC_OPTIONS, COMMAND_OPTIONS, BUILTIN_OPTIONS,
];

/** The writers read with a table here. */
export const WRITER_OPTIONS: readonly ProgramOptions[] = [SORT_OPTIONS, SED_OPTIONS, UNIQ_OPTIONS, TEE_OPTIONS];

const BY_NAME = new Map<string, ProgramOptions>();
for (const t of [...WRAPPER_OPTIONS, ...WRITER_OPTIONS, ...FILE_OPTIONS]) for (const n of t.names) BY_NAME.set(n, t);

/** The option table of a program, by its command name. */
export function programOptions(name: string): ProgramOptions | undefined {
  return BY_NAME.get(name);
}
