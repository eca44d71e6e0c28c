/**
 * The option tables (program-options.ts) of sudo and doas, which run a
 * command as another user: sudo 1.9's getopt_long table (its optstring
 * `+Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv` and long options,
 * parse_args.c) and OpenBSD doas's getopt (`+C:Lnsu:`). `runs`: the option
 * makes them run something else than the command that follows (a shell, an
 * editor), which cannot be checked.
 */
import type { ProgramOptions } from './option-spec';

export const SUDO_OPTIONS: ProgramOptions = {
  program: 'sudo',
  names: ['sudo'],
  permute: false,
  options: [
    { long: ['askpass'], short: 'A', arg: 'none' },
    { long: ['auth-type'], short: 'a', arg: 'required' },
    { long: ['background'], short: 'b', arg: 'none' },
    { long: ['bell'], short: 'B', arg: 'none' },
    { long: ['close-from'], short: 'C', arg: 'required' },
    { long: ['login-class'], short: 'c', arg: 'required' },
    { long: ['chdir'], short: 'D', arg: 'required' },
    // `-E` takes no value; `--preserve-env=LIST` may.
    { short: 'E', arg: 'none' },
    { long: ['preserve-env'], arg: 'optional' },
    { long: ['edit'], short: 'e', arg: 'none', means: 'runs', why: 'sudoedit: runs an editor on the files that follow, which runs any shell command it is told to' },
    { long: ['group'], short: 'g', arg: 'required' },
    { long: ['set-home'], short: 'H', arg: 'none' },
    // `-h` alone is --help, `-hHOST` is --host.
    { short: 'h', arg: 'optional' },
    { long: ['help'], arg: 'none' },
    { long: ['host'], arg: 'required' },
    { long: ['login'], short: 'i', arg: 'none', means: 'runs', why: 'runs a login shell (reading its start-up files), which runs the command as shell text' },
    { long: ['remove-timestamp'], short: 'K', arg: 'none' },
    { long: ['reset-timestamp'], short: 'k', arg: 'none' },
    { long: ['list'], short: 'l', arg: 'none' },
    { long: ['no-update'], short: 'N', arg: 'none' },
    { long: ['non-interactive'], short: 'n', arg: 'none' },
    { long: ['preserve-groups'], short: 'P', arg: 'none' },
    { long: ['prompt'], short: 'p', arg: 'required' },
    { long: ['chroot'], short: 'R', arg: 'required', means: 'runs', why: 'runs the command from inside the folder it names, whose programs may be any' },
    { long: ['role'], short: 'r', arg: 'required' },
    { long: ['stdin'], short: 'S', arg: 'none' },
    { long: ['shell'], short: 's', arg: 'none', means: 'runs', why: 'runs a shell, which reads the command as shell text (or its input)' },
    { long: ['type'], short: 't', arg: 'required' },
    { long: ['command-timeout'], short: 'T', arg: 'required' },
    { long: ['other-user'], short: 'U', arg: 'required' },
    { long: ['user'], short: 'u', arg: 'required' },
    { long: ['version'], short: 'V', arg: 'none' },
    { long: ['validate'], short: 'v', arg: 'none' },
  ],
};

export const DOAS_OPTIONS: ProgramOptions = {
  program: 'doas',
  names: ['doas'],
  permute: false,
  options: [
    { short: 'C', arg: 'required' },
    { short: 'L', arg: 'none' },
    { short: 'n', arg: 'none' },
    { short: 's', arg: 'none', means: 'runs', why: 'runs a shell, which reads commands from its input' },
    { short: 'u', arg: 'required' },
  ],
};
