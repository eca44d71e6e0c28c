/**
 * What a shell word means after the shell's quote removal, when that can be
 * known before it runs. `dynamic` marks words whose value depends on run time
 * (parameter/command/arithmetic expansion, globs, brace expansion, a leading
 * tilde): such a word can never be matched against an allowed_commands entry.
 */
import type { ShellNode as SyntaxNode } from './tree';

export interface Word {
  /** The value after quote removal (the static parts, for a dynamic word). */
  readonly value: string;
  readonly dynamic: boolean;
  /**
   * Dynamic only through unquoted `*` globs: every string it can expand to
   * matches `value` read with `*` as "any run" (see command-match.ts).
   */
  readonly starGlob?: boolean;
  /** The word as written. */
  readonly text: string;
  /**
   * `$HOME`, `$PWD`, `~` and the like in it are the user's (user-vars.ts): the
   * command does not set them, so their shape is known (dynamic-shape.ts).
   */
  readonly userVars?: boolean;
}

/** Unquoted text: backslash quotes the next character; backslash-newline vanishes. */
function unquotedValue(text: string): { value: string; dynamic: boolean; star: boolean } {
  let value = '';
  let dynamic = false;
  let star = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (c === '\\') {
      const next = text[i + 1];
      if (next !== undefined && next !== '\n') value += next;
      i++;
      continue;
    }
    // Globs, brace expansion and a leading tilde are expanded by the shell.
    if (c === '*') star = true;
    else if ('?[{}$`'.includes(c) || (c === '~' && i === 0)) dynamic = true;
    value += c;
  }
  return { value, dynamic, star };
}

/** Inside double quotes only \$ \` \" \\ and backslash-newline are escapes. */
export function doubleQuotedValue(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

const C_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/** `$'...'` (ANSI-C quoting): decode its escapes the way bash does. */
export function ansiCValue(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (m, esc: string) => {
    const head = esc[0] ?? '';
    if (head === 'x' || head === 'u' || head === 'U') {
      const cp = parseInt(esc.slice(1), 16);
      return cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    if (/^[0-7]/.test(esc)) return String.fromCharCode(parseInt(esc, 8) & 0xff);
    if (head === 'c') return String.fromCharCode((esc.charCodeAt(1) || 0) & 0x1f);
    return C_ESCAPES[esc] ?? m;
  });
}

/** Node types whose value is only known at run time. */
const EXPANSIONS = new Set(['simple_expansion', 'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion', 'brace_expression']);

/** Evaluate a word-like node; anything unfamiliar is dynamic (fail closed). */
export function evalWord(node: SyntaxNode): Word {
  const text = node.text;
  const word = (value: string, dynamic: boolean, star = false): Word =>
    star && !dynamic ? { value, dynamic: true, starGlob: true, text } : { value, dynamic: dynamic || star, text };
  switch (node.type) {
    case 'word':
    case 'number': {
      const u = unquotedValue(text);
      return word(u.value, u.dynamic, u.star);
    }
    case 'raw_string':
      return word(text.slice(1, -1), false);
    case 'ansi_c_string':
      return word(ansiCValue(text.slice(2, -1)), false);
    case 'string': {
      const inner = node.namedChildren.filter((c): c is SyntaxNode => c !== null);
      if (inner.some((c) => c.type !== 'string_content')) return word(doubleQuotedValue(text.slice(1, -1)), true);
      return word(doubleQuotedValue(text.slice(1, -1)), false);
    }
    case 'translated_string': {
      const s = node.namedChildren.find((c) => c?.type === 'string');
      return s ? { ...evalWord(s), text } : word(text, true);
    }
    case 'concatenation': {
      let value = '';
      let dynamic = false;
      let star = false;
      for (const c of node.namedChildren) {
        if (!c) continue;
        const w = evalWord(c);
        value += w.value;
        if (w.starGlob) star = true;
        else dynamic ||= w.dynamic;
      }
      // Children may not cover every character (e.g. `$"..."`): then it is not a plain word.
      return word(value, dynamic || node.childCount !== node.namedChildCount, star);
    }
    default:
      return word(text, true);
  }
}

export function isExpansionNode(node: SyntaxNode): boolean {
  return EXPANSIONS.has(node.type);
}
