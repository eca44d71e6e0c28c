// Builds this test-only extension into a VSIX (once per test process), the
// way the harness builds the in-host runner.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

let built: Promise<string> | undefined;

export function scriptedModelVsix(): Promise<string> {
  built ??= (async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'stategate-scripted-'));
    const { build } = await import('esbuild');
    await build({ entryPoints: [path.join(__dirname, 'src', 'extension.ts')], outfile: path.join(out, 'dist', 'extension.js'), bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'warning' });
    fs.copyFileSync(path.join(__dirname, 'package.json'), path.join(out, 'package.json'));
    fs.writeFileSync(path.join(out, 'README.md'), 'Test-only scripted language model for stategate end-to-end tests.\n');
    fs.writeFileSync(path.join(out, '.vscodeignore'), '*.vsix\n');
    // @vscode/vsce's programmatic API (no types shipped).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const vsce = require('@vscode/vsce') as { createVSIX(o: Record<string, unknown>): Promise<unknown> };
    const vsix = path.join(out, 'scripted-model.vsix');
    const saved = { log: console.log, info: console.info, warn: console.warn };
    console.log = console.info = console.warn = () => undefined;
    try {
      await vsce.createVSIX({ cwd: out, packagePath: vsix, dependencies: false, allowMissingRepository: true, skipLicense: true });
    } finally {
      Object.assign(console, saved);
    }
    return vsix;
  })();
  return built;
}
