/**
 * Reads SVG with an XML parser in strict mode (sax: not well-formed XML,
 * unknown entities or a second root element throw) and returns what the
 * export tests compare: the root element, every text node, and the states
 * drawn (`data-state` groups with their caption).
 *
 * sax is in node_modules as a dependency of xml2js (from @vscode/vsce), not as
 * one of the project's own: it has no types, so the little used here is typed
 * below.
 */
interface SaxTag {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
}

interface SaxParser {
  onopentag: (tag: SaxTag) => void;
  onclosetag: (name: string) => void;
  ontext: (text: string) => void;
  onerror: (err: Error) => void;
  write(text: string): SaxParser;
  close(): SaxParser;
}

const sax = require('sax') as { parser(strict: boolean, options?: { xmlns?: boolean }): SaxParser };

export interface SvgDocument {
  readonly root: SaxTag;
  readonly texts: readonly string[];
  /** `data-state` of each state group, and the text drawn in it. */
  readonly states: ReadonlyMap<string, string>;
}

export function readSvg(text: string): SvgDocument {
  const parser = sax.parser(true);
  let root: SaxTag | undefined;
  const texts: string[] = [];
  const states = new Map<string, string>();
  const open: { tag: SaxTag; text: string[] }[] = [];
  parser.onerror = (err) => {
    throw err;
  };
  parser.onopentag = (tag) => {
    root ??= tag;
    open.push({ tag, text: [] });
  };
  parser.ontext = (t) => {
    if (t.trim() === '') return;
    texts.push(t);
    for (const o of open) o.text.push(t);
  };
  parser.onclosetag = () => {
    const done = open.pop()!;
    const state = done.tag.attributes['data-state'];
    // The caption is the group's last text (the first is its <title>, the id).
    if (state !== undefined) states.set(state, done.text.at(-1) ?? '');
  };
  parser.write(text).close();
  if (!root) throw new Error('no root element');
  return { root, texts, states };
}
