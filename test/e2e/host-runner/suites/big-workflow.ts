// A workflow of `states` states in a chain, the last transition naming a state that does not exist:
// big enough that checking it takes a while, with one error to wait for. Shared by the in-host
// test (language-server.ts) and the test that times the same check outside VS Code (rules.test.ts).
/** 8,000 states: about 1.9 MB, which the checker takes about a quarter of a second over (warm). */
export const BIG_STATES = 8000;

export function bigWorkflow(states: number): string {
  const body: Record<string, unknown> = {};
  for (let i = 0; i < states; i++) {
    body[`s${i}`] = {
      instructions: `Step ${i} of the chain: do the work of this step and send NEXT.`,
      allowed_tools: ['Read', 'Grep', 'Edit'],
      on: { NEXT: i === states - 1 ? 'nowhere' : `s${i + 1}` },
    };
  }
  body['done'] = { type: 'final' };
  return `${JSON.stringify({ id: 'big', initial: 's0', states: body }, null, 2)}\n`;
}

/** What the in-host test reports. */
export interface HostThreadReport {
  readonly diagnosticCodes: string[];
  /** From opening the document to its Problems (ms). */
  readonly waitedMs: number;
  /** The extension host's event loop while the server checked the document again after a small edit: the longest delay and the 99th percentile (ms). */
  readonly maxDelayMs: number;
  readonly p99DelayMs: number;
  readonly hostPid: number;
  readonly serverPid: number | undefined;
  /** The extension's modules loaded in the host, by file name. */
  readonly loaded: string[];
  /** Whether the lenses' commands got VS Code's types (Uri, Position, Location) from the JSON the server sent. */
  readonly lensArguments: { readonly startRun: boolean; readonly showReferences: boolean };
}
