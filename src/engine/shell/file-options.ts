/**
 * The option tables (program-options.ts) of the file commands: `cp`, `mv`,
 * `rm`, `touch`, `mkdir`, `chmod`, `chown`, `ln`, `install`, `truncate`, as
 * GNU coreutils 9.1 reads them (their `--help` on the machine this was
 * written on). They only write the paths they are given (write-targets.ts
 * finds them, from the command with its options spelled in full), so what
 * matters here is reading the options as the program does: an option a
 * table does not know, or an ambiguous prefix, is denied under
 * allowed_commands instead of being read some other way than the program
 * reads it (`cp --targ .claude x` is `--target-directory`).
 */
import type { OptionSpec, ProgramOptions } from './option-spec';

const HELP: OptionSpec[] = [
  { long: ['help'], arg: 'none' },
  { long: ['version'], arg: 'none' },
];

/** The backup options cp, mv, ln and install share. */
const BACKUP: OptionSpec[] = [
  { long: ['backup'], arg: 'optional' },
  { short: 'b', arg: 'none' },
  { long: ['suffix'], short: 'S', arg: 'required' },
  { long: ['target-directory'], short: 't', arg: 'required' },
  { long: ['no-target-directory'], short: 'T', arg: 'none' },
  { long: ['verbose'], short: 'v', arg: 'none' },
];

/** `--update` takes a value from coreutils 9.3 on (`--update=none`); 9.1 takes none. */
const UPDATE: OptionSpec = { long: ['update'], short: 'u', arg: 'optional' };

export const CP_OPTIONS: ProgramOptions = {
  program: 'cp',
  names: ['cp'],
  permute: true,
  options: [
    { long: ['archive'], short: 'a', arg: 'none' },
    { long: ['attributes-only'], arg: 'none' },
    { long: ['copy-contents'], arg: 'none' },
    { short: 'd', arg: 'none' },
    { long: ['force'], short: 'f', arg: 'none' },
    { long: ['interactive'], short: 'i', arg: 'none' },
    { short: 'H', arg: 'none' },
    { long: ['link'], short: 'l', arg: 'none' },
    { long: ['dereference'], short: 'L', arg: 'none' },
    { long: ['no-clobber'], short: 'n', arg: 'none' },
    { long: ['no-dereference'], short: 'P', arg: 'none' },
    { short: 'p', arg: 'none' },
    { long: ['preserve'], arg: 'optional' },
    { long: ['no-preserve'], arg: 'required' },
    { long: ['parents'], arg: 'none' },
    { long: ['recursive'], short: 'Rr', arg: 'none' },
    { long: ['reflink'], arg: 'optional' },
    { long: ['remove-destination'], arg: 'none' },
    { long: ['sparse'], arg: 'required' },
    { long: ['strip-trailing-slashes'], arg: 'none' },
    { long: ['symbolic-link'], short: 's', arg: 'none' },
    UPDATE,
    { long: ['one-file-system'], short: 'x', arg: 'none' },
    { short: 'Z', arg: 'none' },
    { long: ['context'], arg: 'optional' },
    ...BACKUP,
    ...HELP,
  ],
};

export const MV_OPTIONS: ProgramOptions = {
  program: 'mv',
  names: ['mv'],
  permute: true,
  options: [
    { long: ['force'], short: 'f', arg: 'none' },
    { long: ['interactive'], short: 'i', arg: 'none' },
    { long: ['no-clobber'], short: 'n', arg: 'none' },
    { long: ['strip-trailing-slashes'], arg: 'none' },
    UPDATE,
    { long: ['context'], short: 'Z', arg: 'none' },
    ...BACKUP,
    ...HELP,
  ],
};

export const LN_OPTIONS: ProgramOptions = {
  program: 'ln',
  names: ['ln'],
  permute: true,
  options: [
    { long: ['directory'], short: 'dF', arg: 'none' },
    { long: ['force'], short: 'f', arg: 'none' },
    { long: ['interactive'], short: 'i', arg: 'none' },
    { long: ['logical'], short: 'L', arg: 'none' },
    { long: ['no-dereference'], short: 'n', arg: 'none' },
    { long: ['physical'], short: 'P', arg: 'none' },
    { long: ['relative'], short: 'r', arg: 'none' },
    { long: ['symbolic'], short: 's', arg: 'none' },
    ...BACKUP,
    ...HELP,
  ],
};

export const INSTALL_OPTIONS: ProgramOptions = {
  program: 'install',
  names: ['install'],
  permute: true,
  options: [
    { short: 'c', arg: 'none' },
    { long: ['compare'], short: 'C', arg: 'none' },
    { long: ['directory'], short: 'd', arg: 'none' },
    { short: 'D', arg: 'none' },
    { long: ['group'], short: 'g', arg: 'required' },
    { long: ['mode'], short: 'm', arg: 'required' },
    { long: ['owner'], short: 'o', arg: 'required' },
    { long: ['preserve-timestamps'], short: 'p', arg: 'none' },
    { long: ['strip'], short: 's', arg: 'none' },
    { long: ['strip-program'], arg: 'required', means: 'runs', why: 'install -s runs the program it names on each file it installs' },
    { long: ['preserve-context'], arg: 'none' },
    { short: 'Z', arg: 'none' },
    { long: ['context'], arg: 'optional' },
    ...BACKUP,
    ...HELP,
  ],
};

export const RM_OPTIONS: ProgramOptions = {
  program: 'rm',
  names: ['rm'],
  permute: true,
  options: [
    { long: ['force'], short: 'f', arg: 'none' },
    { short: 'i', arg: 'none' },
    { short: 'I', arg: 'none' },
    { long: ['interactive'], arg: 'optional' },
    { long: ['one-file-system'], arg: 'none' },
    { long: ['no-preserve-root'], arg: 'none' },
    { long: ['preserve-root'], arg: 'optional' },
    { long: ['recursive'], short: 'rR', arg: 'none' },
    { long: ['dir'], short: 'd', arg: 'none' },
    { long: ['verbose'], short: 'v', arg: 'none' },
    ...HELP,
  ],
};

export const TOUCH_OPTIONS: ProgramOptions = {
  program: 'touch',
  names: ['touch'],
  permute: true,
  options: [
    { short: 'a', arg: 'none' },
    { long: ['no-create'], short: 'c', arg: 'none' },
    { long: ['date'], short: 'd', arg: 'required' },
    { short: 'f', arg: 'none' },
    { long: ['no-dereference'], short: 'h', arg: 'none' },
    { short: 'm', arg: 'none' },
    { long: ['reference'], short: 'r', arg: 'required' },
    { short: 't', arg: 'required' },
    { long: ['time'], arg: 'required' },
    ...HELP,
  ],
};

export const MKDIR_OPTIONS: ProgramOptions = {
  program: 'mkdir',
  names: ['mkdir'],
  permute: true,
  options: [
    { long: ['mode'], short: 'm', arg: 'required' },
    { long: ['parents'], short: 'p', arg: 'none' },
    { long: ['verbose'], short: 'v', arg: 'none' },
    { short: 'Z', arg: 'none' },
    { long: ['context'], arg: 'optional' },
    ...HELP,
  ],
};

/** What chmod and chown share. */
const CHANGE: OptionSpec[] = [
  { long: ['changes'], short: 'c', arg: 'none' },
  { long: ['silent', 'quiet'], short: 'f', arg: 'none' },
  { long: ['verbose'], short: 'v', arg: 'none' },
  { long: ['no-preserve-root'], arg: 'none' },
  { long: ['preserve-root'], arg: 'none' },
  { long: ['reference'], arg: 'required' },
  { long: ['recursive'], short: 'R', arg: 'none' },
  ...HELP,
];

export const CHMOD_OPTIONS: ProgramOptions = {
  program: 'chmod',
  names: ['chmod'],
  permute: true,
  options: [
    ...CHANGE,
    // `chmod -x f`, `chmod -w,u+r f`: chmod takes a word starting with a mode letter as the MODE
    // (its optstring gives every mode character an optional argument: `r::w::x::...`).
    { short: 'rwxXstugoa,+=01234567', arg: 'optional' },
  ],
};

export const CHOWN_OPTIONS: ProgramOptions = {
  program: 'chown',
  names: ['chown'],
  permute: true,
  options: [
    ...CHANGE,
    { long: ['dereference'], arg: 'none' },
    { long: ['no-dereference'], short: 'h', arg: 'none' },
    { long: ['from'], arg: 'required' },
    { short: 'H', arg: 'none' },
    { short: 'L', arg: 'none' },
    { short: 'P', arg: 'none' },
  ],
};

export const TRUNCATE_OPTIONS: ProgramOptions = {
  program: 'truncate',
  names: ['truncate'],
  permute: true,
  options: [
    { long: ['no-create'], short: 'c', arg: 'none' },
    { long: ['io-blocks'], short: 'o', arg: 'none' },
    { long: ['reference'], short: 'r', arg: 'required' },
    { long: ['size'], short: 's', arg: 'required' },
    ...HELP,
  ],
};

/** The file commands read with a table. */
export const FILE_OPTIONS: readonly ProgramOptions[] = [CP_OPTIONS, MV_OPTIONS, RM_OPTIONS, TOUCH_OPTIONS, MKDIR_OPTIONS, CHMOD_OPTIONS, CHOWN_OPTIONS, LN_OPTIONS, INSTALL_OPTIONS, TRUNCATE_OPTIONS];
