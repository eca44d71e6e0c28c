/**
 * Hover text (Markdown) for what is under the cursor: a state's summary, a
 * guard's predicate in words, an event's transitions, an invoked workflow,
 * an interrupt, or a field's reference doc from the schema.
 */
import { RETURN_TARGET, type SourceLoc, type Workflow } from '../model/index.js';
import { cursorAt } from './cursor.js';
import { guardSummary, stateSummary, transitionLine } from './describe.js';
import type { ResolveInvoke } from './navigation.js';
import { fieldDoc } from './schema-docs.js';
import { symbolAt, type SymbolAt } from './symbols.js';

export interface Hover {
  readonly markdown: string;
  readonly loc: SourceLoc;
}

export interface HoverOptions {
  /** The workflow JSON Schema (its descriptions document the fields). */
  readonly schema?: unknown;
  readonly resolve?: ResolveInvoke;
  readonly file?: string;
}

export function hoverAt(text: string, wf: Workflow, offset: number, options: HoverOptions = {}): Hover | undefined {
  const sym = symbolAt(wf, offset, text);
  if (!sym) return returnHover(text, wf, offset);
  const markdown = describeSymbol(text, wf, sym, options);
  return markdown ? { markdown, loc: sym.loc } : undefined;
}

function describeSymbol(text: string, wf: Workflow, sym: SymbolAt, options: HoverOptions): string | undefined {
  switch (sym.kind) {
    case 'state':
      return stateSummary(wf, sym.name, text);
    case 'guard':
      return guardSummary(wf, sym.name);
    case 'event': {
      const here = wf.states.get(sym.owner ?? '')?.on.find((t) => t.event === sym.name);
      const elsewhere = [...wf.states.values()].filter((s) => s.id !== sym.owner && s.on.some((t) => t.event === sym.name)).map((s) => `\`${s.id}\``);
      return `**event** in \`${sym.owner}\`: ${here ? transitionLine(here) : `\`${sym.name}\``}${elsewhere.length ? `\n\nAlso handled in ${elsewhere.join(', ')}.` : ''}`;
    }
    case 'workflow': {
      if (sym.role === 'definition') return `**workflow** \`${sym.name}\`: other workflows invoke it by this id.`;
      const found = options.resolve?.(sym.name, options.file);
      if (!found) return `**invokes** \`${sym.name}\`: no workflow with this id or registered name was found in the workspace.`;
      const w = found.workflow;
      return `**invokes** \`${sym.name}\`${w.name ? `: ${w.name}` : ''}${w.description ? `\n\n${w.description}` : ''}${found.file ? `\n\nDefined in \`${found.file}\`.` : ''}`;
    }
    case 'interrupt': {
      const i = wf.interrupts.find((x) => x.name === sym.name);
      return i ? `**interrupt** \`${i.name}\`: when a file matching \`${i.filePattern}\` is written, moves to \`${i.target.name}\`; \`$return\` goes back.` : undefined;
    }
    case 'fork-branch':
      return `**fork branch** \`${sym.name}\` of \`${sym.owner}\` on \`${sym.event}\`.`;
    case 'field': {
      const doc = fieldDoc(options.schema, sym.path);
      return doc ? `**${sym.name}**\n\n${doc}` : undefined;
    }
  }
}

/** `$return` is a keyword, not a symbol: say what it does, and where it can be used. */
function returnHover(text: string, wf: Workflow, offset: number): Hover | undefined {
  const str = cursorAt(text, offset, wf.loc.pointer === '/definition').string;
  if (str?.value !== RETURN_TARGET) return undefined;
  const markdown =
    '**`$return`**: goes back to the state the active interrupt fired in, and ends the interrupt. ' +
    'Only valid in states an interrupt handler can reach; refused at run time when no interrupt is active.';
  return { markdown, loc: { pointer: '', start: str.start, end: str.end } };
}
