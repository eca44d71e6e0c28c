/**
 * Invoke rules that look beyond this file: the named workflow must be found
 * (by id or registered name, through registries that can be read), and
 * invoking must never lead back to this workflow (a child would start its
 * parent again, forever).
 */
import * as path from 'node:path';
import type { Diagnostic, InvokeResolver, InvokeTransition, ResolvedWorkflow, Workflow } from '../model/index.js';
import { isInvokeProblem } from '../model/index.js';

export function invokeRules(wf: Workflow, resolveUncached: InvokeResolver, file?: string): Diagnostic[] {
  const resolve = memoised(resolveUncached);
  const out: Diagnostic[] = [];
  // The path back (if any) depends only on the invoked name: searched once per name, however many states invoke it.
  const paths = new Map<string, string[] | undefined>();
  for (const state of wf.states.values()) {
    for (const t of state.on) {
      if (t.kind !== 'invoke') continue;
      const child = resolve(t.workflow.name);
      if (isInvokeProblem(child)) {
        out.push({
          severity: 'error',
          code: 'broken-manifest',
          message: `\`${t.workflow.name}\` cannot be looked up: ${child.problem}`,
          loc: t.workflow.loc,
          data: { workflow: t.workflow.name },
        });
        continue;
      }
      if (!child) {
        out.push({
          severity: 'warning',
          code: 'unknown-workflow',
          message:
            `No workflow with id or registered name \`${t.workflow.name}\` was found beside this file or in .stategate/workflows/. ` +
            'Check the name, or register the file in a manifest.json (`{"workflows": [{"name", "file"}]}`).',
          loc: t.workflow.loc,
          data: { workflow: t.workflow.name },
        });
        continue;
      }
      let path = paths.get(t.workflow.name);
      if (!paths.has(t.workflow.name)) paths.set(t.workflow.name, (path = cyclePath(wf, file, child, t, resolve)));
      if (path) out.push(cycleDiagnostic(wf, t, path));
    }
  }
  return out;
}

/**
 * The resolver, asked once per (name, invoking file) within one check: a
 * resolution looks on disk (a stat of each folder up to the root, a listing,
 * a stat per candidate file), and a large workflow names the same child from
 * many states.
 */
function memoised(resolve: InvokeResolver): InvokeResolver {
  const memo = new Map<string, ReturnType<InvokeResolver>>();
  return (name, fromFile) => {
    const key = fromFile === undefined ? `\u0000${name}` : `${fromFile}\u0000${name}`;
    if (memo.has(key)) return memo.get(key);
    const found = resolve(name, fromFile);
    memo.set(key, found);
    return found;
  };
}

function isSelf(wf: Workflow, file: string | undefined, candidate: ResolvedWorkflow): boolean {
  // Compared resolved: the CLI passes the path as typed (often relative), the registry gives absolute ones.
  if (file !== undefined && candidate.file !== undefined) return path.resolve(candidate.file) === path.resolve(file);
  return wf.id !== '' && candidate.workflow.id === wf.id;
}

/** Depth-first through the children's invokes: the first path of names back to `wf`. */
function cyclePath(
  wf: Workflow,
  file: string | undefined,
  child: ResolvedWorkflow,
  t: InvokeTransition,
  resolve: InvokeResolver,
): string[] | undefined {
  const visited = new Set<string>();
  const search = (node: ResolvedWorkflow, path: string[]): string[] | undefined => {
    if (isSelf(wf, file, node)) return path;
    const key = node.file ?? `id:${node.workflow.id}`;
    if (visited.has(key)) return undefined; // a cycle not through `wf` is reported in its own file
    visited.add(key);
    for (const s of node.workflow.states.values()) {
      for (const next of s.on) {
        if (next.kind !== 'invoke') continue;
        const grandchild = resolve(next.workflow.name, node.file);
        // A grandchild that cannot be looked up is reported in the file that invokes it.
        const found = grandchild && !isInvokeProblem(grandchild) && search(grandchild, [...path, next.workflow.name]);
        if (found) return found;
      }
    }
    return undefined;
  };
  return search(child, [t.workflow.name]);
}

function cycleDiagnostic(wf: Workflow, t: InvokeTransition, path: string[]): Diagnostic {
  const chain = [wf.id || 'this workflow', ...path].map((n) => `\`${n}\``).join(' → ');
  return {
    severity: 'error',
    code: 'invoke-cycle',
    message: `Invoking \`${t.workflow.name}\` leads back to this workflow (${chain}), so runs would nest forever. Break the cycle by invoking a different workflow.`,
    loc: t.workflow.loc,
    data: { cycle: [...path] },
  };
}
