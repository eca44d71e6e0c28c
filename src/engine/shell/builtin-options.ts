/**
 * The option tables (program-options.ts) of bash's builtins that run a
 * command: `exec`, `command`, `builtin`. Bash reads their options with its
 * own getopt (internal_getopt: short letters, clustered, `--` ends them, no
 * long options but `--help`), from the option strings in bash 5.2's
 * builtins/exec.def (`cla:`), command.def (`pvV`) and builtin.def (none).
 */
import type { ProgramOptions } from './option-spec';

export const EXEC_OPTIONS: ProgramOptions = {
  program: 'exec',
  names: ['exec'],
  permute: false,
  options: [
    { short: 'c', arg: 'none' },
    { short: 'l', arg: 'none' },
    { short: 'a', arg: 'required' },
    { long: ['help'], arg: 'none' },
  ],
};

export const COMMAND_OPTIONS: ProgramOptions = {
  program: 'command',
  names: ['command'],
  permute: false,
  options: [{ short: 'p', arg: 'none' }, { short: 'v', arg: 'none' }, { short: 'V', arg: 'none' }, { long: ['help'], arg: 'none' }],
};

export const BUILTIN_OPTIONS: ProgramOptions = {
  program: 'builtin',
  names: ['builtin'],
  permute: false,
  options: [{ long: ['help'], arg: 'none' }],
};
