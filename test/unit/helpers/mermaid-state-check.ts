/**
 * A reader of Mermaid `stateDiagram-v2` text for the export tests.
 *
 * `@mermaid-js/parser` (the devDependency) has no state-diagram grammar (its
 * `parse('state', ...)` answers "Unknown diagram type"; export-check.test.ts
 * holds that), and no other installed package parses state diagrams. Mermaid
 * itself reads them with a jison grammar, `stateDiagram.jison` in the mermaid
 * package; this is that grammar's lexer, rule for rule in its order and with
 * its start conditions (case-insensitive, first matching rule wins, as jison
 * does), and a parser for its productions, so text Mermaid rejects is
 * rejected here for the same reason. With `strict`, it also refuses what
 * Mermaid accepts but an export must not write: a transition from or to a
 * state no statement declares (Mermaid makes one up where the transition is
 * written), a class no `classDef` defines (Mermaid ignores it).
 */

type Action = string | undefined | ((lx: Lexer, text: string) => string | undefined);

interface Rule {
  readonly conds: readonly string[];
  readonly re: RegExp;
  readonly act: Action;
}

const I = ['INITIAL'];
const rule = (conds: readonly string[], source: string, act: Action): Rule => ({ conds, re: new RegExp(source, 'iy'), act });
const push = (cond: string, token?: string) => (lx: Lexer) => (lx.stack.push(cond), token);
const pop = (token?: string) => (lx: Lexer) => (lx.pop(), token);
const popPush = (cond: string, token?: string) => (lx: Lexer) => (lx.pop(), lx.stack.push(cond), token);

/** stateDiagram.jison's lexer rules, in order. */
const RULES: readonly Rule[] = [
  rule(I, 'default', 'DEFAULT'),
  ...['TB', 'BT', 'RL', 'LR'].map((d) => rule(I, `.*direction\\s+${d}[^\\n]*`, `direction_${d.toLowerCase()}`)),
  rule(I, '%%(?!\\{)[^\\n]*', undefined),
  rule(I, '[^}]%%[^\\n]*', undefined),
  rule(I, '[\\n]+', 'NL'),
  rule(I, '[\\s]+', undefined),
  rule(['ID', 'STATE', 'struct', 'LINE'], '((?!\\n)\\s)+', undefined),
  rule(['INITIAL', 'ID', 'STATE', 'struct', 'LINE'], '#[^\\n]*', undefined),
  rule(I, '%%[^\\n]*', undefined),
  rule(I, 'scale\\s+', push('SCALE', 'scale')),
  rule(['SCALE'], '\\d+', 'WIDTH'),
  rule(['SCALE'], '\\s+width', pop()),
  rule(I, 'accTitle\\s*:\\s*', push('acc_title', 'acc_title')),
  rule(['acc_title'], '(?!\\n|;|#)*[^\\n]*', pop('acc_title_value')),
  rule(I, 'accDescr\\s*:\\s*', push('acc_descr', 'acc_descr')),
  rule(['acc_descr'], '(?!\\n|;|#)*[^\\n]*', pop('acc_descr_value')),
  rule(I, 'accDescr\\s*\\{\\s*', push('acc_descr_multiline')),
  rule(['acc_descr_multiline'], '[}]', pop()),
  rule(['acc_descr_multiline'], '[^}]*', 'acc_descr_multiline_value'),
  rule(['INITIAL', 'struct'], 'classDef\\s+', push('CLASSDEF', 'classDef')),
  rule(['CLASSDEF'], 'DEFAULT\\s+', popPush('CLASSDEFID', 'DEFAULT_CLASSDEF_ID')),
  rule(['CLASSDEF'], '\\w+\\s+', popPush('CLASSDEFID', 'CLASSDEF_ID')),
  rule(['CLASSDEFID'], '[^\\n]*', pop('CLASSDEF_STYLEOPTS')),
  rule(['INITIAL', 'struct'], 'class\\s+', push('CLASS', 'class')),
  rule(['CLASS'], '(\\w+)+((,\\s*\\w+)*)', popPush('CLASS_STYLE', 'CLASSENTITY_IDS')),
  rule(['CLASS_STYLE'], '[^\\n]*', pop('STYLECLASS')),
  rule(['INITIAL', 'struct'], 'state\\s+', push('STATE')),
  ...[
    ['<<fork>>', 'FORK'],
    ['<<join>>', 'JOIN'],
    ['<<choice>>', 'CHOICE'],
    ['\\[\\[fork\\]\\]', 'FORK'],
    ['\\[\\[join\\]\\]', 'JOIN'],
    ['\\[\\[choice\\]\\]', 'CHOICE'],
  ].map(([mark, token]) => rule(['STATE'], `.*${mark}`, pop(token))),
  ...['TB', 'BT', 'RL', 'LR'].map((d) => rule(['struct'], `.*direction\\s+${d}[^\\n]*`, `direction_${d.toLowerCase()}`)),
  rule(['STATE'], '["]', push('STATE_STRING')),
  rule(['STATE'], '\\s*as\\s+', push('STATE_ID', 'AS')),
  rule(['STATE_ID'], '[^\\n{]*', pop('ID')),
  rule(['STATE_STRING'], '["]', pop()),
  rule(['STATE_STRING'], '[^"]*', 'STATE_DESCR'),
  rule(['STATE'], '[^\\n\\s{]+', 'COMPOSIT_STATE'),
  rule(['STATE'], '\\n', pop()),
  rule(['INITIAL', 'STATE'], '\\{', popPush('struct', 'STRUCT_START')),
  rule(['struct'], '%%(?!\\{)[^\\n]*', undefined),
  rule(['struct'], '\\}', pop('STRUCT_STOP')),
  rule(['struct'], '[\\n]', undefined),
  rule(['INITIAL', 'struct'], 'note\\s+', push('NOTE', 'note')),
  rule(['NOTE'], 'left of', popPush('NOTE_ID', 'left_of')),
  rule(['NOTE'], 'right of', popPush('NOTE_ID', 'right_of')),
  rule(['NOTE'], '"', popPush('FLOATING_NOTE')),
  rule(['FLOATING_NOTE'], '\\s*as\\s*', popPush('FLOATING_NOTE_ID', 'AS')),
  rule(['FLOATING_NOTE'], '["]', undefined),
  rule(['FLOATING_NOTE'], '[^"]*', 'NOTE_TEXT'),
  rule(['FLOATING_NOTE_ID'], '[^\\n]*', pop('ID')),
  rule(['NOTE_ID'], '\\s*[^:\\n\\s\\-]+', popPush('NOTE_TEXT', 'ID')),
  rule(['NOTE_TEXT'], '\\s*:[^:\\n;]+', pop('NOTE_TEXT')),
  rule(['NOTE_TEXT'], '[\\s\\S]*?end note', pop('NOTE_TEXT')),
  rule(I, 'stateDiagram\\s+', 'SD'),
  rule(I, 'stateDiagram-v2\\s+', 'SD'),
  rule(I, 'hide empty description', 'HIDE_EMPTY'),
  rule(['INITIAL', 'struct'], '\\[\\*\\]', 'EDGE_STATE'),
  rule(['INITIAL', 'struct'], '[^:\\n\\s\\-{]+', 'ID'),
  rule(['INITIAL', 'struct'], '\\s*:[^:\\n;]+', 'DESCR'),
  rule(['INITIAL', 'struct'], '-->', '-->'),
  rule(['struct'], '--', 'CONCURRENT'),
  rule(I, ':::', 'STYLE_SEPARATOR'),
  rule(I, '.', 'INVALID'),
];

interface Token {
  readonly type: string;
  readonly text: string;
  readonly line: number;
}

export class MermaidSyntaxError extends Error {}

class Lexer {
  readonly stack = ['INITIAL'];
  constructor(private readonly input: string) {}

  /** jison's popState: the INITIAL condition is never popped. */
  pop(): void {
    if (this.stack.length > 1) this.stack.pop();
  }

  tokens(): Token[] {
    const out: Token[] = [];
    let pos = 0;
    const lineAt = (p: number) => this.input.slice(0, p).split('\n').length;
    while (pos < this.input.length) {
      const cond = this.stack[this.stack.length - 1]!;
      let matched = false;
      for (const r of RULES) {
        if (!r.conds.includes(cond)) continue;
        r.re.lastIndex = pos;
        const m = r.re.exec(this.input);
        if (!m) continue;
        const depth = this.stack.join(' ');
        const type = typeof r.act === 'function' ? r.act(this, m[0]) : r.act;
        // jison takes an empty match too; one that changes no condition never moves on (jison loops).
        if (m[0] === '' && depth === this.stack.join(' ')) throw new MermaidSyntaxError(`line ${lineAt(pos)}: the lexer stops advancing in condition ${cond}`);
        if (type !== undefined) out.push({ type, text: m[0], line: lineAt(pos) });
        pos += m[0].length;
        matched = true;
        break;
      }
      if (!matched) throw new MermaidSyntaxError(`line ${lineAt(pos)}: no lexer rule of condition ${cond} matches ${JSON.stringify(this.input.slice(pos, pos + 20))}`);
    }
    out.push({ type: 'NL', text: '', line: lineAt(pos) }, { type: 'EOF', text: '', line: lineAt(pos) });
    return out;
  }
}

export interface MermaidState {
  /** The caption of `state "caption" as id` (the last one given). */
  caption?: string;
  /** The composite state whose body declared it (undefined: the top). */
  parent?: string;
  composite: boolean;
  /** `--` dividers in its body. */
  dividers: number;
  classes: string[];
}

export interface MermaidRelation {
  readonly from: string;
  readonly to: string;
  readonly label?: string;
  /** The composite state whose body holds it. */
  readonly block?: string;
}

export interface MermaidDiagram {
  readonly states: ReadonlyMap<string, MermaidState>;
  readonly relations: readonly MermaidRelation[];
  readonly classDefs: ReadonlyMap<string, string>;
}

/** Reads the text as Mermaid does, or throws MermaidSyntaxError saying where and why. */
export function readMermaidStateDiagram(text: string, opts: { readonly strict?: boolean } = {}): MermaidDiagram {
  const toks = new Lexer(text).tokens();
  let i = 0;
  const peek = (): Token => toks[i]!;
  const fail = (what: string): never => {
    throw new MermaidSyntaxError(`line ${peek().line}: ${what}, found ${peek().type} ${JSON.stringify(peek().text)}`);
  };
  const expect = (...types: string[]): Token => (types.includes(peek().type) ? toks[i++]! : fail(`expected ${types.join(' or ')}`));
  const states = new Map<string, MermaidState>();
  const relations: MermaidRelation[] = [];
  const classDefs = new Map<string, string>();
  const applied: { ids: string[]; cls: string; line: number }[] = [];
  const mentioned: { id: string; line: number }[] = [];
  const state = (id: string, block: string | undefined): MermaidState => {
    const found = states.get(id);
    if (found) return found;
    const made: MermaidState = { ...(block !== undefined ? { parent: block } : {}), composite: false, dividers: 0, classes: [] };
    states.set(id, made);
    return made;
  };
  const idStatement = (): string => {
    const id = expect('ID', 'EDGE_STATE').text.trim();
    if (peek().type === 'STYLE_SEPARATOR') (i++, expect('ID'));
    return id;
  };
  const body = (block: string | undefined): void => {
    const owner = block === undefined ? undefined : states.get(block)!;
    if (owner) owner.composite = true;
    document(block);
    expect('STRUCT_STOP');
  };
  const statement = (block: string | undefined): void => {
    const t = peek();
    switch (t.type) {
      case 'classDef': {
        i++;
        const id = expect('CLASSDEF_ID', 'DEFAULT').text.trim();
        classDefs.set(id, expect('CLASSDEF_STYLEOPTS').text.trim());
        return;
      }
      case 'class': {
        i++;
        const ids = expect('CLASSENTITY_IDS').text.split(',').map((s) => s.trim());
        applied.push({ ids, cls: expect('STYLECLASS').text.trim(), line: t.line });
        return;
      }
      case 'ID':
      case 'EDGE_STATE': {
        const from = idStatement();
        if (peek().type === '-->') {
          i++;
          const to = idStatement();
          const label = peek().type === 'DESCR' ? toks[i++]!.text.trim().replace(/^:/, '').trim() : undefined;
          for (const id of [from, to]) if (id !== '[*]') mentioned.push({ id, line: t.line });
          relations.push({ from, to, ...(label !== undefined ? { label } : {}), ...(block !== undefined ? { block } : {}) });
        } else {
          if (peek().type === 'DESCR') i++;
          if (from !== '[*]') state(from, block);
        }
        return;
      }
      case 'COMPOSIT_STATE': {
        i++;
        state(t.text.trim(), block);
        if (peek().type === 'STRUCT_START') (i++, body(t.text.trim()));
        return;
      }
      case 'STATE_DESCR': {
        i++;
        expect('AS');
        const id = expect('ID').text.trim();
        state(id, block).caption = t.text;
        if (peek().type === 'STRUCT_START') (i++, body(id));
        return;
      }
      case 'CONCURRENT':
        // The lexer makes `--` only inside a body, so there is always a block here.
        states.get(block ?? fail('`--` outside a composite state'))!.dividers++;
        i++;
        return;
      case 'HIDE_EMPTY':
      case 'FORK':
      case 'JOIN':
      case 'CHOICE':
      case 'direction_tb':
      case 'direction_bt':
      case 'direction_rl':
      case 'direction_lr':
      case 'acc_descr_multiline_value':
        i++;
        return;
      case 'scale':
        i++;
        expect('WIDTH');
        return;
      case 'acc_title':
      case 'acc_descr':
        i++;
        expect(`${t.type}_value`);
        return;
      case 'note':
        i++;
        if (peek().type === 'left_of' || peek().type === 'right_of') (i++, expect('ID'), expect('NOTE_TEXT'));
        else (expect('NOTE_TEXT'), expect('AS'), expect('ID'));
        return;
      default:
        fail('expected a statement');
    }
  };
  const document = (block: string | undefined): void => {
    for (;;) {
      const type = peek().type;
      if (type === 'EOF' || type === 'STRUCT_STOP') return;
      if (type === 'NL') i++;
      else statement(block);
    }
  };
  while (peek().type === 'NL') i++;
  expect('SD');
  document(undefined);
  expect('EOF');
  if (!opts.strict) return { states, relations, classDefs };
  for (const m of mentioned) if (!states.has(m.id)) throw new MermaidSyntaxError(`line ${m.line}: transition to or from \`${m.id}\`, which no statement declares (Mermaid would draw a new state)`);
  for (const a of applied) {
    if (!classDefs.has(a.cls)) throw new MermaidSyntaxError(`line ${a.line}: class \`${a.cls}\` is not defined`);
    for (const id of a.ids) {
      const s = states.get(id);
      if (!s) throw new MermaidSyntaxError(`line ${a.line}: class applied to \`${id}\`, which no statement declares`);
      s.classes.push(a.cls);
    }
  }
  return { states, relations, classDefs };
}
