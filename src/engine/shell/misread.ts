/**
 * Where tree-sitter-bash reads a command line differently from bash. Each
 * check returns the misreading it found (the analysis then denies: what the
 * tree says is not what bash would run), or undefined. All were found by
 * hand or by the differential fuzzer (test/fuzz/shell-vs-bash.ts).
 */
import type { ShellNode as SyntaxNode } from './tree';

export interface Misread {
  readonly reason: string;
  readonly offending: string;
}

const BLANK = ' \t\n';
const named = (node: SyntaxNode): readonly SyntaxNode[] => node.namedChildren;
const around = (text: string, i: number): string => text.slice(Math.max(0, i - 20), i + 22);

/** Is the character at `at` escaped by an odd run of backslashes before it? */
function escaped(text: string, at: number): boolean {
  let n = 0;
  while (at - 1 - n >= 0 && text[at - 1 - n] === '\\') n++;
  return n % 2 === 1;
}

/**
 * Every non-blank character must belong to a token of the tree: the parser
 * silently drops some (an escaped blank after `[`: `x=a[\ b rm` is one
 * assignment for bash, `x=a[` plus a command `b` for the tree). A bare `$`
 * token is literal only where bash would not expand what follows (`a$`,
 * `$"..."`): `$SECRET` read as `$` + a word was misread. Line continuations
 * are left to `joinedContinuation`.
 */
export function skippedText(text: string, root: SyntaxNode): Misread | undefined {
  const covered = new Uint8Array(text.length);
  let bareDollar: Misread | undefined;
  // `parent` is the node `n` was reached from (cheaper than asking the tree).
  const visit = (n: SyntaxNode, parent: SyntaxNode | null): void => {
    const leaf = n.childCount === 0;
    if (leaf || n.type === 'heredoc_body') covered.fill(1, n.startIndex, n.endIndex);
    else for (const c of n.children) visit(c, n);
    // Cheapest tests first: only a one-character leaf can be a bare `$`.
    if (!bareDollar && leaf && n.endIndex - n.startIndex === 1 && text[n.startIndex] === '$' && !n.isNamed) {
      const expansion = parent?.type === 'simple_expansion' || parent?.type === 'expansion';
      if (!expansion && /[A-Za-z0-9_{(\[@*#?$!-]/.test(text[n.endIndex] ?? '')) {
        bareDollar = { reason: 'a `$` the parser did not read as an expansion', offending: text.slice(n.startIndex, n.startIndex + 30) };
      }
    }
  };
  visit(root, root.parent);
  if (bareDollar) return bareDollar;
  for (let i = 0; i < text.length; i++) {
    if (covered[i] || BLANK.includes(text[i] ?? '') || (text[i] === '\\' && text[i + 1] === '\n')) continue;
    return { reason: 'the parser skipped part of the command, so it cannot be analysed', offending: around(text, i) };
  }
  return undefined;
}

/** Where a line continuation is part of quoted text (or a comment) for both readers. */
const QUOTED = new Set(['string', 'raw_string', 'ansi_c_string', 'translated_string', 'heredoc_body', 'comment']);

/**
 * bash joins `a\<newline>b` into one word; the parser splits it in two, which
 * can move the command name (`X=1\<newline>pytest rm` runs `rm` for bash). A
 * line continuation between two non-blank characters outside quotes,
 * here-docs and comments is a misreading (also between operator characters:
 * `$\<newline>(cmd)` is a substitution for bash).
 */
export function joinedContinuation(text: string, root: SyntaxNode): Misread | undefined {
  const solid = (c: string | undefined): boolean => c !== undefined && !BLANK.includes(c);
  for (let i = text.indexOf('\\\n'); i >= 0; i = text.indexOf('\\\n', i + 2)) {
    if (escaped(text, i) || !solid(text[i - 1]) || !solid(text[i + 2])) continue;
    let node: SyntaxNode | null = root.descendantForIndex(i);
    while (node && !QUOTED.has(node.type)) node = node.parent;
    if (!node) return { reason: 'a line continuation inside a word is read differently by bash and by the parser', offending: around(text, i) };
  }
  return undefined;
}

/**
 * bash starts a comment only where a word could start. The parser also takes
 * `#` after an escaped blank (`a\ #...`) or a line continuation
 * (`a\<newline>#...`) for one, where bash reads on (and runs `#$(cmd)`).
 */
export function falseComment(text: string, comment: SyntaxNode): Misread | undefined {
  let j = comment.startIndex - 1;
  while (j >= 1 && text[j] === '\n' && escaped(text, j)) j -= 2;
  const ok = j < 0 || (' \t\n;&|()<>'.includes(text[j] ?? '') && !escaped(text, j));
  return ok ? undefined : { reason: 'a `#` the parser took for a comment is part of a word for bash', offending: comment.text };
}

/**
 * A simple command (or declaration) as bash splits it: it starts and ends at
 * a word boundary (`{pytest;}` is a command `{pytest` for bash), its words are
 * separated by blanks or line continuations only (no bare newline:
 * `EOF<newline>\<newline>printenv` is two commands for bash), and no word is
 * glued to a redirect target (`>/dev/null\x cmd` writes `/dev/nullx`).
 */
export function splitWords(text: string, node: SyntaxNode, keyword?: SyntaxNode): Misread | undefined {
  const edge = (c: string | undefined): boolean => c === undefined || ' \t\n;&|()<>`'.includes(c);
  if (node.type === 'command' && (!edge(text[node.startIndex - 1]) || !edge(text[node.endIndex]))) {
    return { reason: 'this command is delimited differently by bash and by the parser', offending: node.text };
  }
  const all = named(node);
  for (let i = 1; i < all.length; i++) {
    const prev = all[i - 1];
    const next = all[i];
    if (prev && next && prev.type.endsWith('redirect') && !next.type.endsWith('redirect') && prev.endIndex === next.startIndex) {
      return { reason: 'the target of this redirect is split differently by bash and by the parser', offending: node.text };
    }
  }
  const parts = [...(keyword ? [keyword] : []), ...all.filter((c) => !c.type.endsWith('redirect'))];
  for (let i = 1; i < parts.length; i++) {
    const prev = parts[i - 1];
    const next = parts[i];
    if (prev && next && !/^(?:[ \t]|\\\n)+$/.test(text.slice(prev.endIndex, next.startIndex))) {
      return { reason: 'the words of this command are split differently by bash and by the parser', offending: node.text };
    }
  }
  return undefined;
}
