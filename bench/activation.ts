/**
 * Activation in the real VS Code: launches code-server with the packaged
 * stategate.vsix through the e2e harness (test/e2e/harness.ts), runs the
 * in-host `smoke` suite, which times `extension.activate()` (loading the
 * bundle and running activate()) in the extension host once the host has
 * settled (VS Code's own extensions activated), and prints one JSON object on
 * stdout: `{ ok, samples: [ms...], callSamples: [ms...], vscode }` (callSamples:
 * activate()'s body alone, by the extension's own clock) or `{ ok: false, error }`.
 * Each launch is a fresh VS Code, so every sample is a cold activation. The
 * VSIX installed is $STATEGATE_VSIX when set (run.mjs points it at its snapshot).
 *
 *   node --import tsx bench/activation.ts [launches]
 */
import { VsCode } from '../test/e2e/harness';

interface SmokeData {
  readonly activeBefore: boolean;
  readonly activateMs: number;
  readonly activateCallMs?: number;
  readonly settleMs?: number;
}

async function once(): Promise<{ ms: number; callMs?: number; vscode: string }> {
  const vsc = await VsCode.launch({ workspace: 'test/e2e/fixtures/smoke' });
  try {
    const ready = await vsc.hostReady();
    const result = await vsc.host('smoke');
    const test = result.tests.find((r) => r.name.startsWith('stategate is installed'));
    if (!test?.ok) throw new Error(`in-host smoke test failed: ${test?.error ?? result.error ?? 'not found'}`);
    const data = test.data as SmokeData;
    if (data.activeBefore) throw new Error('stategate was already active, so activation was not timed');
    return { ms: data.activateMs, callMs: data.activateCallMs, vscode: ready.vscodeVersion };
  } finally {
    await vsc.close();
  }
}

async function main(): Promise<void> {
  const launches = Math.max(1, Number(process.argv[2] ?? 3));
  const samples: number[] = [];
  /** activate() itself (the extension's own clock around its body), per launch. */
  const callSamples: number[] = [];
  let vscode = '';
  try {
    for (let i = 0; i < launches; i++) {
      const r = await once();
      samples.push(r.ms);
      if (r.callMs !== undefined) callSamples.push(r.callMs);
      vscode = r.vscode;
    }
    process.stdout.write(`${JSON.stringify({ ok: true, samples, callSamples, vscode })}\n`);
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ ok: false, samples, error: (e as Error).message.split('\n')[0] })}\n`);
  }
}

void main().then(() => process.exit(0));
