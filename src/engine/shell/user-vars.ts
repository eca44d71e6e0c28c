/**
 * Variables the user's session sets and the agent does not choose: `$HOME`,
 * `$TMPDIR`, `$USER`, `$PWD`, a leading `~`. Their values are not known
 * before the command runs, but their shape is: an absolute path, a user
 * name, a number; never an option. So an argument such as `$HOME/tests` or
 * `"$PWD/build"` cannot become a flag that makes an allowed program run
 * code (docs/design/shell-parser.md, "The user's variables").
 *
 * That holds only while the command itself leaves them alone: a command that
 * assigns one (`HOME=-p; pytest $HOME`), sets IFS (which decides where an
 * unquoted value splits), or runs a builtin that can set a variable by a
 * name written in any quoting (`read`, `printf -v`, `declare`, `eval`,
 * `source`, `env`, ...) makes them the agent's: see commandMaySetUserVars.
 */
import type { ShellNode as SyntaxNode } from './tree';
import { braceWords } from './brace-expansion';
import { evalWord } from './words';

export interface UserVar {
  /** The shape's first character, standing for the whole value: `/` (a path), `u` (a name), `0` (a number). */
  readonly first: '/' | 'u' | '0';
  /** Unquoted, the value can split into words the agent chose (PWD: the agent picks the directory it is in). */
  readonly agentSplits: boolean;
}

export const USER_VARS: Readonly<Record<string, UserVar>> = {
  HOME: { first: '/', agentSplits: false },
  TMPDIR: { first: '/', agentSplits: false },
  // `cd` sets these to a directory the agent named (and clients keep the agent's cwd between
  // calls): always absolute, so quoted they are one path; unquoted a name with blanks splits.
  PWD: { first: '/', agentSplits: true },
  OLDPWD: { first: '/', agentSplits: true },
  USER: { first: 'u', agentSplits: false },
  LOGNAME: { first: 'u', agentSplits: false },
  // Read-only in bash: an assignment fails.
  UID: { first: '0', agentSplits: false },
  EUID: { first: '0', agentSplits: false },
  PPID: { first: '0', agentSplits: false },
};

/** Builtins and commands that set a variable named by a word in any quoting, or run text that can. */
const SETTERS = new Set([
  'read', 'mapfile', 'readarray', 'printf', 'getopts', 'declare', 'typeset', 'local', 'export', 'readonly', 'unset', 'let', 'wait',
  'eval', 'source', '.', 'env', 'sudo', 'doas', 'builtin', 'command', 'trap', 'alias',
]);
const NAMES = Object.keys(USER_VARS);
/** `$NAME` and `${NAME}` exactly: reading the value, nothing else. */
const PLAIN_READ = new RegExp(`\\$(?:(?:${NAMES.join('|')})(?![A-Za-z0-9_])|\\{(?:${NAMES.join('|')})\\})`, 'g');
/** Any other mention of a name (an assignment, `${TMPDIR:=x}`, `for HOME in`, `declare -n r=HOME`), or of IFS. */
const OTHER_MENTION = new RegExp(`(?<![A-Za-z0-9_])(?:${[...NAMES, 'IFS'].join('|')})(?![A-Za-z0-9_])`);

/**
 * Whether this piece of shell text (the whole command, or an eval / sh -c
 * body) may set one of the user's variables, or IFS, before it reads them.
 * Conservative: any mention other than a plain read, and any setter anywhere.
 */
export function commandMaySetUserVars(text: string, root: SyntaxNode): boolean {
  if (OTHER_MENTION.test(text.replace(PLAIN_READ, ''))) return true;
  const visit = (n: SyntaxNode): boolean => {
    if (n.type === 'declaration_command' || n.type === 'unset_command') return true;
    if (n.type === 'command') {
      for (const c of n.namedChildren) {
        const w = c.type === 'command_name' ? c.namedChildren[0] : c;
        if (!w || w.type.endsWith('redirect') || w.type === 'variable_assignment') continue;
        // Brace expansion can make a setter's name: `e{xport,} X` runs `export e X`.
        const word = evalWord(w);
        if ((braceWords(word) ?? [word]).some((x) => SETTERS.has(x.value))) return true;
      }
    }
    return n.namedChildren.some(visit);
  };
  return visit(root);
}
