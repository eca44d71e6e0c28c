/**
 * What a sed script does beyond printing: GNU sed's `e` command and `s///e`
 * flag run shell commands, `w`/`W` and `s///w` write files. Authors allow
 * `sed` to read files (`sed -n '1,40p' f`), so these must be seen. The
 * scanner reads the script the way sed does (addresses, then a command and
 * its arguments); anything it does not recognise counts as running code.
 */

export interface SedEffects {
  readonly runs: boolean;
  readonly writes: boolean;
  /** The files `w`/`W` and `s///w` write (the path rules check them). */
  readonly files: readonly string[];
}

/** Index after a delimited part starting at `i` (just past the opening delimiter). */
function skipDelimited(s: string, i: number, delim: string): number {
  for (; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === delim) return i + 1;
    else if (s[i] === '\n' && delim !== '\n') return -1;
  }
  return -1;
}

function skipAddress(s: string, i: number): number {
  const one = (j: number): number => {
    if (/[0-9]/.test(s[j] ?? '')) {
      while (/[0-9~]/.test(s[j] ?? '')) j++;
      return j;
    }
    if (s[j] === '$') return j + 1;
    if (s[j] === '/') return skipDelimited(s, j + 1, '/');
    if (s[j] === '\\' && j + 1 < s.length) return skipDelimited(s, j + 2, s[j + 1] ?? '');
    return j;
  };
  i = one(i);
  if (i < 0) return i;
  if (s[i] === ',') {
    i++;
    if (s[i] === '+' || s[i] === '~') i++;
    i = one(i);
  }
  if (i < 0) return i;
  while (s[i] === ' ' || s[i] === '\t') i++;
  if (s[i] === '!') i++;
  return i;
}

const toLineEnd = (s: string, i: number): number => {
  const nl = s.indexOf('\n', i);
  return nl < 0 ? s.length : nl;
};

/**
 * The end of a/i/c's text: the rest of the line, and the next one while a
 * line ends in an odd number of backslashes (`1a\` NEWLINE `text`,
 * `1a one\` NEWLINE `two`). On GNU sed 4.9 `sed '1a hello\` NEWLINE
 * `e echo X'` appends the line `e echo X`, and `sed '1a\` NEWLINE `hello\\`
 * NEWLINE `e echo X'` runs `echo X` (an even count ends the text).
 */
function textEnd(s: string, i: number): number {
  for (;;) {
    const end = toLineEnd(s, i);
    const slashes = /\\*$/.exec(s.slice(i, end))?.[0].length ?? 0;
    if (slashes % 2 === 0 || end >= s.length) return end;
    i = end + 1;
  }
}

/**
 * The end of a label (`:a`, `b a`, `ta`). The manual says labels are read
 * until a semicolon, but GNU sed 4.9 ends them at a blank too: `sed ':a e
 * echo X'` and `sed 'ta e echo X'` run `echo X`. The shorter reading is
 * taken, so whatever follows is scanned as commands.
 */
function labelEnd(s: string, i: number): number {
  while (s[i] === ' ' || s[i] === '\t') i++;
  while (i < s.length && !/[\s;]/.test(s[i] ?? '')) i++;
  return i;
}

export function sedEffects(script: string): SedEffects {
  let runs = false;
  let writes = false;
  const files: string[] = [];
  /** `w FILE`: the file name runs to the end of the line. */
  const fileAt = (from: number): number => {
    const end = toLineEnd(script, from);
    files.push(script.slice(from, end).trim());
    return end;
  };
  let i = 0;
  while (i < script.length) {
    const c0 = script[i] ?? '';
    if (/[\s;{}]/.test(c0)) {
      i++;
      continue;
    }
    if (c0 === '#') {
      i = toLineEnd(script, i);
      continue;
    }
    i = skipAddress(script, i);
    if (i < 0) return { runs: true, writes, files };
    while (script[i] === ' ' || script[i] === '\t') i++;
    const cmd = script[i] ?? '';
    i++;
    if (cmd === '' || cmd === '{' || cmd === '}' || cmd === ';' || cmd === '\n') continue;
    if (cmd === 's' || cmd === 'y') {
      const delim = script[i] ?? '';
      if (delim === '' || delim === '\n' || delim === '\\') return { runs: true, writes, files };
      i = skipDelimited(script, i + 1, delim);
      if (i >= 0) i = skipDelimited(script, i, delim);
      if (i < 0) return { runs: true, writes, files };
      if (cmd === 's') {
        const flags = /^[0-9gpiImMe]*w?/.exec(script.slice(i))?.[0] ?? '';
        if (flags.includes('e')) runs = true;
        if (flags.endsWith('w')) {
          writes = true;
          i = fileAt(i + flags.length);
        } else i += flags.length;
      }
    } else if (cmd === 'e') {
      runs = true;
      i = toLineEnd(script, i);
    } else if (cmd === 'w' || cmd === 'W') {
      writes = true;
      i = fileAt(i);
    } else if ('aic'.includes(cmd)) i = textEnd(script, i);
    else if ('rR'.includes(cmd)) i = toLineEnd(script, i);
    else if (':btT'.includes(cmd)) i = labelEnd(script, i);
    else if ('qQlLv'.includes(cmd)) while (/[0-9 ]/.test(script[i] ?? '')) i++;
    else if (!'pdDnNgGhHxPz=F'.includes(cmd)) return { runs: true, writes, files };
  }
  return { runs, writes, files };
}

/**
 * The script of a sed command line: the `-e S`/`--expression=S` pieces
 * joined with newlines (GNU sed reads them as the lines of one script, so a
 * piece can go on in the next: on GNU sed 4.9 `sed -e '1a\' -e hello`
 * appends `hello`, `sed -e '1e echo \' -e X` runs `echo` NEWLINE `X`, and
 * `sed -e 1e -e id` runs the line, then inserts `d`; the manual, "Multiple
 * commands syntax": each command may be an argument to an -e option), else
 * the first operand; `-f` files are unknown.
 */
export function sedScripts(args: readonly string[]): string[] | undefined {
  const scripts: string[] = [];
  let firstOperand: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '-e' || a === '--expression') scripts.push(args[++i] ?? '');
    else if (a.startsWith('--expression=')) scripts.push(a.slice('--expression='.length));
    else if (a === '-f' || a.startsWith('--file') || /^-[a-zA-Z]*f/.test(a)) return undefined;
    else if (/^-[a-zA-Z]*e$/.test(a)) scripts.push(args[++i] ?? '');
    else if (/^-[a-zA-Z]*e./.test(a)) scripts.push(a.slice(a.indexOf('e') + 1));
    else if (a === '-l' || a === '--line-length') i++;
    else if (!a.startsWith('-') && firstOperand === undefined) firstOperand = a;
  }
  if (scripts.length === 0) return firstOperand === undefined ? [] : [firstOperand];
  return [scripts.join('\n')];
}
