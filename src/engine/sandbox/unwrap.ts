/**
 * The agent's own command back from the one its client ran. A client that
 * took the hook's rewrite reports the rewritten input after the call (Claude
 * Code's PostToolUse carries `bwrap ... -- /bin/bash -c '<command>'`), and
 * what stategate records of the call (evidence of a command's exit code,
 * files it wrote, interrupts) is about the command the agent asked for. The
 * words here are only candidates: the Runner keeps one only when wrapping it
 * again for the state gives exactly the command the client ran, so a command
 * shaped like a wrap by hand (with a bind of its own over `npm`, say) is never
 * taken for the command inside it.
 */

/** A command line of plain and single-quoted words (as bwrap-argv.ts and util/shell-quote.ts write them), or undefined. */
export function quotedWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\' && line[i + 1] === "'") {
      word = (word ?? '') + "'";
      i++;
    } else if (/[\s"`$\\;&|<>(){}*?[\]#~]/.test(c)) {
      // Anything a shell would read as more than a literal character: not a line stategate wrote.
      return undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The command inside `[env -u NAME...] bwrap ARGS -- /bin/bash -c COMMAND`, or undefined. */
export function sandboxedCommand(line: string): string | undefined {
  const all = quotedWords(line);
  if (!all) return undefined;
  let at = 0;
  if (all[0] === 'env') for (at = 1; all[at] === '-u' && at + 1 < all.length; at += 2);
  const words = all.slice(at);
  if (words.length < 5 || !/(^|\/)bwrap$/.test(words[0]!)) return undefined;
  const n = words.length;
  return words[n - 4] === '--' && words[n - 2] === '-c' ? words[n - 1] : undefined;
}

/** The command inside the environment rewrite `env -u A K=V bash -c COMMAND` (util/shell-quote.ts), or undefined. */
export function envRewrittenCommand(line: string): string | undefined {
  const words = quotedWords(line);
  if (!words || words.length < 4 || words[0] !== 'env') return undefined;
  const n = words.length;
  return words[n - 3] === 'bash' && words[n - 2] === '-c' ? words[n - 1] : undefined;
}
