/**
 * Go to definition and find references for states, guards, events and
 * workflow ids. Other files are reached only through callbacks, so the
 * service stays pure (the editor adapter scans the workspace).
 */
import type { SourceLoc, Workflow } from '../model/index.js';
import { symbolOccurrences } from './occurrences.js';
import { symbolAt } from './symbols.js';

/** A place in this file (no `file`) or in another one. */
export interface Target {
  readonly file?: string;
  readonly loc: SourceLoc;
}

/**
 * Finds an invoked workflow by id or registered name, seen from `fromFile`.
 * Structurally the same as the engine's `InvokeResolver`, so that one can be passed.
 */
export type ResolveInvoke = (name: string, fromFile?: string) => { readonly workflow: Workflow; readonly file?: string } | undefined;

export interface NavigationOptions {
  /** The text the workflow was loaded from (finds `meta.failure_states` entries too). */
  readonly text?: string;
  /** This file's path, passed to `resolve`. */
  readonly file?: string;
  readonly resolve?: ResolveInvoke;
  /** Where other files invoke a workflow id (for references across the workspace). */
  readonly invocations?: (id: string) => readonly Target[];
}

export function definitionAt(wf: Workflow, offset: number, options: NavigationOptions = {}): Target[] {
  const sym = symbolAt(wf, offset, options.text);
  if (!sym || sym.kind === 'field') return [];
  if (sym.kind === 'workflow' && sym.role === 'reference') {
    const found = options.resolve?.(sym.name, options.file);
    if (!found) return [];
    const loc = found.workflow.idLoc ?? found.workflow.loc;
    // A workflow resolved to this very file has no `file` of its own to jump to.
    return [found.file !== undefined && found.file !== options.file ? { file: found.file, loc } : { loc }];
  }
  return symbolOccurrences(wf, sym)
    .filter((o) => o.role === 'definition' && o.kind !== 'event')
    .map((o) => ({ loc: o.loc }));
}

export function referencesAt(wf: Workflow, offset: number, includeDeclaration: boolean, options: NavigationOptions = {}): Target[] {
  const sym = symbolAt(wf, offset, options.text);
  if (!sym || sym.kind === 'field') return [];
  const local: Target[] = symbolOccurrences(wf, sym, options.text)
    // Every `on` key of an event is a use of it, so events have no separate declaration.
    .filter((o) => includeDeclaration || o.role === 'reference' || o.kind === 'event')
    .map((o) => ({ loc: o.loc }));
  if (sym.kind !== 'workflow' || !options.invocations) return local;
  const elsewhere = options.invocations(sym.name).filter((t) => t.file !== undefined && t.file !== options.file);
  return [...local, ...elsewhere];
}
