// The in-host test registry: suites register named tests; the runner runs a
// suite by name and reports each test's outcome. A test may return JSON data
// (a measurement, what it saw) that the outer test reads from the result.

export type HostTest = () => unknown | Promise<unknown>;

export interface HostTestResult {
  readonly name: string;
  readonly ok: boolean;
  readonly ms: number;
  readonly data?: unknown;
  readonly error?: string;
}

export interface HostSuiteResult {
  readonly suite: string;
  readonly ok: boolean;
  readonly tests: readonly HostTestResult[];
  readonly error?: string;
}

const suites = new Map<string, Array<{ name: string; fn: HostTest }>>();

/** Registers `fn` as test `name` of suite `suiteName`. */
export function hostTest(suiteName: string, name: string, fn: HostTest): void {
  let list = suites.get(suiteName);
  if (!list) suites.set(suiteName, (list = []));
  list.push({ name, fn });
}

export async function runSuite(suiteName: string, only?: readonly string[]): Promise<HostSuiteResult> {
  const list = suites.get(suiteName);
  if (!list) return { suite: suiteName, ok: false, tests: [], error: `no suite named ${suiteName} (have: ${[...suites.keys()].join(', ')})` };
  const tests: HostTestResult[] = [];
  for (const t of list) {
    if (only && !only.includes(t.name)) continue;
    const start = performance.now();
    try {
      const data = await t.fn();
      tests.push({ name: t.name, ok: true, ms: performance.now() - start, ...(data === undefined ? {} : { data }) });
    } catch (e) {
      const error = e instanceof Error ? (e.stack ?? e.message) : String(e);
      tests.push({ name: t.name, ok: false, ms: performance.now() - start, error });
    }
  }
  return { suite: suiteName, ok: tests.every((t) => t.ok), tests };
}

/** Waits until `check` returns a truthy value (polling), or throws after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
