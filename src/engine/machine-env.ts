/**
 * A ready-made `MachineEnv`: definition texts load through the format loaders
 * and stay cached by the text itself (a run re-derives its IR from the text it
 * started with on every operation, so the cache is what keeps that cheap). The
 * text is the key, not its sha256: a Map finds a string key by V8's string hash
 * (cached on the string; for long strings little more than the length) and
 * then by identity or equality, and the machine's copies of a snapshot share
 * the very same string, so a lookup costs next to nothing and never hashes
 * the whole text.
 * The time source and the invoke resolver come from the caller (the store
 * resolves invokes through the workflow registry; tests pass their own).
 */
import type { Workflow } from './model.js';
import { loadWorkflowText } from './formats/index.js';
import type { InvokeResolution, MachineEnv } from './cursor.js';

export interface MachineEnvOptions {
  now?: () => string;
  resolveInvoke?: (name: string, fromFile?: string) => InvokeResolution | undefined;
  /** Bound on cached definitions (oldest dropped first). */
  cacheSize?: number;
}

export function createMachineEnv(opts: MachineEnvOptions = {}): MachineEnv {
  const cache = new Map<string, Workflow | undefined>();
  const limit = opts.cacheSize ?? 64;
  return {
    now: opts.now ?? (() => new Date().toISOString()),
    load(text: string): Workflow | undefined {
      if (cache.has(text)) return cache.get(text);
      const loaded = loadWorkflowText(text);
      // A definition with errors does not run: the machine gets nothing.
      const wf = loaded.diagnostics.some((d) => d.severity === 'error') ? undefined : loaded.workflow;
      if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
      cache.set(text, wf);
      return wf;
    },
    resolveInvoke: opts.resolveInvoke ?? (() => undefined),
  };
}
