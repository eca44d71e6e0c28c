/**
 * Compiled definitions: a run's workflow definition as the IR the engine runs (model/ir-json.ts),
 * kept so that a process which only decides calls (the hook, one per tool call) reads one JSON
 * file instead of running a format loader (YAML parser included) on the source every time.
 * docs/design/compiled-definition.md gives the reasoning.
 *
 *   <state dir>/compiled/v<IR_VERSION>/<sha256 of the source text>.json
 *
 * They live in stategate's state folder outside the workspace (util/user-state-dir.ts), beside the
 * record of the active run, which is what every decision trusts: an agent's write there is denied
 * by the path rules (util/paths/enforcement-files.ts) and the sandbox mounts it read-only
 * (sandbox/plan.ts). A copy in `.stategate/` would not do: an interpreter an agent is allowed could
 * rewrite it, and unlike run.json no record would notice.
 *
 * A file is a cache of a pure function of the text a run keeps (its snapshot's `definitionText`):
 * missing, unreadable, of another IR version or for another text, it is ignored and the definition
 * is loaded from that text again (and the file rewritten), so a decision never depends on whether
 * the file is there; it only costs the loaders' time.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Workflow } from '../model/index.js';
import { IR_VERSION, irFromJson, irToJson } from '../model/ir-json.js';
import type { CompiledDefinitions } from '../machine/env.js';
import { hashText } from '../machine/run.js';
import { writeFileAtomic } from '../util/atomic-file.js';

export const COMPILED_FORMAT = 'stategate-compiled-definition';

/** What a compiled file holds. `workflow: null`: the text does not load (it has errors), so the machine gets nothing. */
interface CompiledFile {
  readonly format: typeof COMPILED_FORMAT;
  readonly ir_version: number;
  readonly source_sha256: string;
  readonly workflow: unknown;
}

/** The folder of this IR version's compiled definitions in state folder `stateDir`. */
export function compiledDir(stateDir: string): string {
  return path.join(stateDir, 'compiled', `v${IR_VERSION}`);
}

/** The compiled file of `text` in `stateDir`. */
export function compiledFileOf(stateDir: string, text: string): string {
  return path.join(compiledDir(stateDir), `${hashText(text)}.json`);
}

/** What reading the compiled file of a text found. */
export type CompiledRead =
  | { readonly kind: 'ok'; readonly workflow: Workflow | undefined }
  | { readonly kind: 'missing' }
  | { readonly kind: 'unusable'; readonly reason: string };

/** The compiled definition of `text`, never throwing: anything but a file this version wrote for this very text is not used. */
export function readCompiled(stateDir: string, text: string): CompiledRead {
  const sha = hashText(text);
  let raw: string;
  try {
    raw = fs.readFileSync(path.join(compiledDir(stateDir), `${sha}.json`), 'utf8');
  } catch {
    return { kind: 'missing' };
  }
  try {
    const file = JSON.parse(raw) as Partial<CompiledFile>;
    if (file.format !== COMPILED_FORMAT) return { kind: 'unusable', reason: 'not a compiled definition' };
    if (file.ir_version !== IR_VERSION) return { kind: 'unusable', reason: `IR version ${JSON.stringify(file.ir_version)}, not ${IR_VERSION}` };
    if (file.source_sha256 !== sha) return { kind: 'unusable', reason: 'compiled from another text' };
    return { kind: 'ok', workflow: file.workflow === null ? undefined : irFromJson(file.workflow) };
  } catch (err) {
    return { kind: 'unusable', reason: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Writes the compiled definition of `text` (what the loaders made of it); false when it could not
 * be written or the IR is not plain data (the definition is then loaded from the text each time).
 */
export function writeCompiled(stateDir: string, text: string, workflow: Workflow | undefined): boolean {
  try {
    const file: CompiledFile = { format: COMPILED_FORMAT, ir_version: IR_VERSION, source_sha256: hashText(text), workflow: workflow === undefined ? null : irToJson(workflow) };
    const dir = compiledDir(stateDir);
    fs.mkdirSync(dir, { recursive: true });
    // Not durable: a file lost to a power cut is compiled again from the run's text.
    writeFileAtomic(path.join(dir, `${file.source_sha256}.json`), JSON.stringify(file), { durable: false });
    return true;
  } catch {
    return false;
  }
}

/** The compiled definitions of state folder `stateDir`, for createMachineEnv. */
export function compiledDefinitions(stateDir: string): CompiledDefinitions {
  return {
    read: (text) => {
      const found = readCompiled(stateDir, text);
      return found.kind === 'ok' ? { workflow: found.workflow } : undefined;
    },
    write: (text, workflow) => {
      writeCompiled(stateDir, text, workflow);
    },
  };
}
