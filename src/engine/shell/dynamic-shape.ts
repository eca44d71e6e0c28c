/**
 * The shape of a word only known when it runs, as far as its text tells:
 * whether it can become several words and what it starts with. Used where a
 * tool reads options (command-args.ts, getopt.ts): such a word can hide one.
 */

import { USER_VARS } from './user-vars';
import type { Word } from './words';

/** A word's shape, reading the user's variables in it as theirs when the walk found the command leaves them alone. */
export function wordShape(w: Word): { splits: boolean; first: string | undefined } {
  return dynamicShape(w.text, w.userVars ?? false);
}

/** `$NAME` or `${NAME}` of one of the user's variables, at the start of `rest`. */
const USER_READ = new RegExp(`^\\$(?:(${Object.keys(USER_VARS).join('|')})(?![A-Za-z0-9_])|\\{(${Object.keys(USER_VARS).join('|')})\\})`);

/**
 * For a word only known when it runs: whether it can become several words
 * (an unquoted expansion, brace expansion) and its first character when that
 * is literal (undefined when an expansion or a glob comes first). With
 * `userVars`, `$HOME` and the like stand for their shape (user-vars.ts): an
 * absolute path, a name or a number, which no program reads as an option.
 */
export function dynamicShape(text: string, userVars = false): { splits: boolean; first: string | undefined } {
  let splits = false;
  let first: string | undefined;
  let started = false;
  const emit = (c: string | undefined): void => {
    if (!started) first = c;
    started = true;
  };
  let quote: '' | "'" | '"' = '';
  /** Reads a user's variable at `i`; returns where it ends, or -1. */
  const userVar = (i: number): number => {
    if (!userVars) return -1;
    const m = USER_READ.exec(text.slice(i));
    const v = m ? USER_VARS[m[1] ?? m[2] ?? ''] : undefined;
    if (!m || !v) return -1;
    if (quote === '' && v.agentSplits) splits = true;
    emit(v.first);
    return i + m[0].length - 1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const end = c === '$' && quote !== "'" ? userVar(i) : -1;
    if (end >= 0) {
      i = end;
      continue;
    }
    if (quote === "'") {
      if (c === "'") quote = '';
      else emit(c);
    } else if (quote === '"') {
      if (c === '"') quote = '';
      else if (c === '\\' && '$`"\\\n'.includes(text[i + 1] ?? '')) emit(text[++i]);
      else emit(c === '$' || c === '`' ? undefined : c);
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') emit(text[++i]);
    else if (c === '$' && text[i + 1] === "'") {
      // ANSI-C quoting: literal, but its escapes are not decoded here.
      emit(undefined);
      quote = "'";
      i++;
    } else if (c === '$' && text.startsWith('((', i + 1)) {
      // Arithmetic gives digits and `-` only: never an option's name, so it may stay unquoted.
      i = arithmeticEnd(text, i + 3);
      emit(undefined);
    } else if (c === '{' && !/^\{[^{}]*(,|\.\.)[^{}]*\}/.test(text.slice(i))) {
      // Not a brace expansion (`{}`, `{x}`): bash keeps it as it is.
      emit(c);
    } else if (c === '{') {
      // Brace expansion makes several words, but each starts with the text before
      // the brace (`tests/{a,b}.py`): only a brace in front can make one start with `-`,
      // and in an option's word (`-x{,-p}`) the new words are options too.
      if (!started || first === '-') splits = true;
      emit(undefined);
    } else if (c === '$' || c === '`') {
      splits = true;
      emit(undefined);
    } else if (c === '~' && i === 0 && userVars) {
      // A leading tilde is a home directory (`~`, `~user`, `~+`, `~-`): an absolute path, never split.
      emit('/');
    } else emit('*?[~'.includes(c) ? undefined : c);
  }
  return { splits, first };
}

/** The index of the last `)` of `$((...))` whose body starts at `from`. */
function arithmeticEnd(text: string, from: number): number {
  let depth = 2;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return text.length;
}
