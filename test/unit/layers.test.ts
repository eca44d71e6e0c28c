/**
 * The layers of src/ are held by dependency-cruiser (`npm run lint`, the rules in
 * .dependency-cruiser.cjs, docs/design/layers.md). This file shows the rules can fail:
 * each case plants a few files in a temporary copy of the folder layout and runs the
 * repository's rules over it through dependency-cruiser's API. It also holds what the
 * linter cannot say: the configuration names exactly the engine's folders, and no engine
 * file loads a module by a computed name (the linter sees only names written out).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { tempDir } from './helpers/temp-dir';

const repo = path.resolve(__dirname, '..', '..');
const config = require(path.join(repo, '.dependency-cruiser.cjs')) as {
  forbidden: unknown[];
  ENGINE_LEVELS: readonly (readonly string[])[];
};

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
}

const scratch = tempDir('stategate-layers-', { after });

/** The rules' violations over a tree of the given files (path -> content), written under a fresh folder. */
async function lint(files: Readonly<Record<string, string>>): Promise<string[]> {
  const root = tempDir('tree-', undefined, scratch);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const { cruise } = await import('dependency-cruiser');
  const result = await cruise(['src'], {
    baseDir: root,
    validate: true,
    ruleSet: { forbidden: config.forbidden } as never,
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
  });
  const output = result.output as { summary: { violations: Violation[] } };
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

const EXPORT_X = 'export const x = 1;\n';

/** Each case: the files planted, and the violations the lint must report (none: it passes). */
const CASES: readonly { name: string; files: Record<string, string>; violations: string[] }[] = [
  {
    name: 'an upward import (model -> runs) names both folders',
    files: { 'src/engine/model/a.ts': "import { x } from '../runs/b';\nexport const y = x;\n", 'src/engine/runs/b.ts': EXPORT_X },
    violations: ['engine-order-model: src/engine/model/a.ts -> src/engine/runs/b.ts'],
  },
  {
    name: 'the same import downward (runs -> model) passes',
    files: { 'src/engine/runs/a.ts': "import { x } from '../model/b';\nexport const y = x;\n", 'src/engine/model/b.ts': EXPORT_X },
    violations: [],
  },
  {
    name: 'a type-only import upward (formats -> store) is one too',
    files: { 'src/engine/formats/a.ts': "import type { X } from '../store/b';\nexport type Y = X;\n", 'src/engine/store/b.ts': 'export type X = number;\n' },
    violations: ['engine-order-formats: src/engine/formats/a.ts -> src/engine/store/b.ts'],
  },
  {
    name: 'a lazy require upward (formats -> check) is one too',
    files: { 'src/engine/formats/a.ts': "export const y = (): unknown => require('../check/b');\n", 'src/engine/check/b.ts': EXPORT_X },
    violations: ['engine-order-formats: src/engine/formats/a.ts -> src/engine/check/b.ts'],
  },
  {
    name: 'folders on one level do not import each other (util -> agent)',
    files: { 'src/engine/util/a.ts': "import { x } from '../agent/b';\nexport const y = x;\n", 'src/engine/agent/b.ts': EXPORT_X },
    violations: ['engine-order-util: src/engine/util/a.ts -> src/engine/agent/b.ts'],
  },
  {
    name: 'a folder without a level is refused',
    files: { 'src/engine/newfolder/a.ts': "import { x } from '../model/b';\nexport const y = x;\n", 'src/engine/model/b.ts': EXPORT_X },
    violations: ['engine-folder-unplaced: src/engine/newfolder/a.ts -> src/engine/model/b.ts'],
  },
  {
    name: 'the engine imports neither vscode nor a shell nor its own index',
    files: {
      'src/engine/model/a.ts': "import * as vscode from 'vscode';\nimport { x } from '../../cli/b';\nimport { z } from '../index';\nexport const y = [vscode, x, z];\n",
      'src/cli/b.ts': EXPORT_X,
      'src/engine/index.ts': 'export const z = 1;\n',
    },
    violations: [
      'engine-no-shells: src/engine/model/a.ts -> src/cli/b.ts',
      'engine-no-vscode: src/engine/model/a.ts -> vscode',
      'engine-not-through-index: src/engine/model/a.ts -> src/engine/index.ts',
    ],
  },
  {
    name: 'a shell reaches the engine through the index; a lazy part only lazily, outside the CLI',
    files: {
      'src/vscode/a.ts': "import { x } from '../engine/index';\nimport { d } from '../engine/machine/d';\nimport { c } from '../engine/check/check-file';\nexport const y = [x, d, c, (): unknown => require('../engine/shell/gate')];\n",
      'src/cli/b.ts': "import { c } from '../engine/check/check-file';\nexport const y = c;\n",
      'src/engine/index.ts': EXPORT_X,
      'src/engine/machine/d.ts': 'export const d = 1;\n',
      'src/engine/check/check-file.ts': 'export const c = 1;\n',
      'src/engine/shell/gate.ts': 'export const g = 1;\n',
    },
    violations: ['lazy-parts-lazily: src/vscode/a.ts -> src/engine/check/check-file.ts', 'shells-through-index: src/vscode/a.ts -> src/engine/machine/d.ts'],
  },
  {
    name: 'the browser part imports types only, and only the webview takes it by file',
    files: {
      'src/engine/export/layout.ts': "import { x } from '../model/b';\nimport type { T } from '../model/c';\nexport const l: T = x;\n",
      'src/engine/model/b.ts': EXPORT_X,
      'src/engine/model/c.ts': 'export type T = number;\n',
      'webview/panel.ts': "import { l } from '../src/engine/export/layout';\nexport const p = l;\n",
      'src/vscode/a.ts': "import { l } from '../engine/export/layout';\nexport const p = l;\n",
    },
    violations: ['browser-parts-types-only: src/engine/export/layout.ts -> src/engine/model/b.ts', 'browser-parts-webview-only: src/vscode/a.ts -> src/engine/export/layout.ts'],
  },
  {
    name: 'an import cycle inside one folder is refused',
    files: { 'src/engine/shell/a.ts': "import type { B } from './b';\nexport type A = B[];\n", 'src/engine/shell/b.ts': "import type { A } from './a';\nexport type B = A | 1;\n" },
    violations: ['no-circular: src/engine/shell/a.ts -> src/engine/shell/b.ts'],
  },
];

for (const c of CASES) {
  test(`lint: ${c.name}`, async () => {
    assert.deepEqual((await lint(c.files)).sort(), [...c.violations].sort());
  });
}

test('the configuration places exactly the folders src/engine/ has', () => {
  const onDisk = fs
    .readdirSync(path.join(repo, 'src', 'engine'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  assert.deepEqual(config.ENGINE_LEVELS.flat().sort(), onDisk);
});

test('no engine file loads a module by a computed name (the linter would not see it)', () => {
  const computed: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) {
        const code = fs.readFileSync(p, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
        for (const m of code.matchAll(/\b(?:require|import)\s*\(\s*([^'"`\s)][^)]*)\)/g)) computed.push(`${path.relative(repo, p)}: ${m[0]}`);
      }
    }
  };
  walk(path.join(repo, 'src', 'engine'));
  assert.deepEqual(computed, []);
});
