/**
 * Whether a command's text could run stategate's own CLI (own-cli.ts), told
 * without parsing it: in a state with no shell rules, only such commands are
 * parsed, so every other shell call still costs nothing. It must say yes to
 * every command own-cli.ts can recognise: those name `stategate` or a
 * `cli`/`cli.js` script in a word whose value, after the shell's quote
 * removal, holds the text, so quotes and backslashes are dropped before
 * looking, and ANSI-C quoting (`$'\x73'`), which can spell any character,
 * always answers yes.
 */
export function mayRunStategate(command: string): boolean {
  if (command.includes("$'")) return true;
  return /stategate|cli(?:\.[cm]?js)?(?![\w.-])/i.test(command.replace(/\\\n|["'\\]/g, ''));
}
