/**
 * A syntax check of PlantUML state diagrams for the export tests (no
 * PlantUML runs here: it is a Java program). Each line must be one of the
 * commands PlantUML's state diagram reads, in the forms of its own command
 * regexes (CommandCreateState, CommandCreatePackageState, CommandLinkState,
 * CommandConcurrentState, `}`): `@startuml` / `@enduml` around the diagram,
 * balanced blocks, transitions with a known arrow between known ends, and
 * on top of the syntax what PlantUML refuses or draws wrong:
 * - a transition end that no `state` line declared before it (PlantUML would
 *   create a new state in the current block);
 * - `X[H]` where X is not a composite state;
 * - a reference across a concurrent section (PlantUML's
 *   `checkConcurrentStateOk`: an end that sits directly in a section, used
 *   from outside it, or any outside end used from inside a section);
 * - a `||` / `--` separator outside a composite state.
 */

export class PlantUmlSyntaxError extends Error {}

export interface PlantUmlState {
  /** The caption as PlantUML shows it (escapes applied). */
  readonly display: string;
  readonly color?: string;
  /** The composite state whose block declared it. */
  readonly parent?: string;
  composite: boolean;
  separators: number;
}

export interface PlantUmlLink {
  readonly from: string;
  readonly to: string;
  readonly label?: string;
}

export interface PlantUmlDiagram {
  readonly title?: string;
  readonly states: ReadonlyMap<string, PlantUmlState>;
  readonly links: readonly PlantUmlLink[];
}

const CODE = '[\\p{L}\\p{N}_.]+';
const COLOR = '#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3}|[a-zA-Z]+)';
const STATE = new RegExp(`^state\\s+"([^"“”]+)"\\s+as\\s+(${CODE})(?:\\s+(${COLOR}))?(\\s*\\{)?$`, 'u');
const END = `(?:${CODE}(?:\\[H\\*?\\])?|\\[\\*\\]|\\[H\\*?\\])`;
// PlantUML's link arrow: x? -+ [style]? direction? [style]? -* >
const ARROW = 'x?-+(?:\\[[^\\]]*\\])?(?:left|right|up|down|le?|ri?|up?|do?)?(?:\\[[^\\]]*\\])?-*>';
const LINK = new RegExp(`^(${END})\\s*${ARROW}\\s*(${END})\\s*(?::\\s*(.+))?$`, 'u');

/** A block: a composite state's body (undefined: the diagram), split into concurrent sections by separators. */
interface Place {
  readonly block?: string;
  readonly section: number;
}

/** A caption as PlantUML shows it (its `Display.getWithNewlines`): `\\n` (and `\\r`, `\\l`) break the line, `\\t` is a tab, `\\\\` a backslash. */
function shown(raw: string): string {
  return raw.replace(/\\(.)/g, (all, c: string) => (c === 'n' || c === 'r' || c === 'l' ? '\n' : c === 't' ? '\t' : c === '\\' ? '\\' : all));
}

export function readPlantUml(text: string): PlantUmlDiagram {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const fail = (n: number, why: string): never => {
    throw new PlantUmlSyntaxError(`line ${n + 1}: ${why}: ${JSON.stringify(lines[n])}`);
  };
  if (lines[0]?.trim() !== '@startuml') fail(0, 'the diagram must start with @startuml');
  if (lines.at(-1)?.trim() !== '@enduml') fail(lines.length - 1, 'the diagram must end with @enduml');
  const states = new Map<string, PlantUmlState & { place: Place }>();
  const links: PlantUmlLink[] = [];
  const open: { code: string; section: number }[] = [];
  let title: string | undefined;
  const here = (): Place => {
    const top = open.at(-1);
    return top ? { block: top.code, section: top.section } : { section: 0 };
  };
  // Where an entity sits: in a concurrent section when its block has separators.
  const concurrent = (p: Place): boolean => p.block !== undefined && (states.get(p.block)?.separators ?? 0) > 0;
  const same = (a: Place, b: Place): boolean => a.block === b.block && a.section === b.section;
  const checkEnd = (n: number, end: string): string => {
    if (end === '[*]' || end === '[H]' || end === '[H*]') return end;
    const history = /^(.*)\[H\*?\]$/u.exec(end);
    const code = history ? history[1]! : end;
    const s = states.get(code) ?? fail(n, `\`${code}\` is used before any \`state\` line declares it`);
    if (history && !s.composite) fail(n, `\`${code}\` has no history: it is not a composite state`);
    const at = here();
    if (!history && ((concurrent(at) && !same(at, s.place)) || (concurrent(s.place) && !same(at, s.place)))) {
      fail(n, `\`${code}\` is in another concurrent section: PlantUML refuses the reference`);
    }
    return end;
  };
  for (let n = 1; n < lines.length - 1; n++) {
    const line = lines[n]!.trim();
    if (line === '' || line.startsWith("'")) continue;
    if (line.startsWith('title ')) {
      title = line.slice(6).trim();
      continue;
    }
    if (line === '}') {
      if (!open.pop()) fail(n, '`}` closes no block');
      continue;
    }
    if (line === '||' || line === '--') {
      const top = open.at(-1) ?? fail(n, 'a concurrent separator outside a composite state');
      top.section++;
      states.get(top.code)!.separators++;
      continue;
    }
    const st = STATE.exec(line);
    if (st) {
      const [, display, code, color, brace] = st as unknown as [string, string, string, string | undefined, string | undefined];
      if (states.has(code)) fail(n, `\`${code}\` is declared twice`);
      const place = here();
      states.set(code, { display: shown(display), ...(color ? { color } : {}), ...(place.block !== undefined ? { parent: place.block } : {}), composite: brace !== undefined, separators: 0, place });
      if (brace) open.push({ code, section: 0 });
      continue;
    }
    const link = LINK.exec(line);
    if (link) {
      const [, from, to, label] = link as unknown as [string, string, string, string | undefined];
      links.push({ from: checkEnd(n, from), to: checkEnd(n, to), ...(label !== undefined ? { label: label.trim() } : {}) });
      continue;
    }
    fail(n, 'not a state diagram command');
  }
  if (open.length) fail(lines.length - 1, `${open.length} block(s) left open (${open.map((o) => o.code).join(', ')})`);
  return { ...(title !== undefined ? { title } : {}), states, links };
}
