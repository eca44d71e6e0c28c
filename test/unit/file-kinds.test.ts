/**
 * What a file's name says it holds, read by one module (src/engine/formats/file-kinds.ts)
 * with one case rule: the typed suffixes, the data extensions and the `statecharts/`
 * folder ignore case; `.stategate/` is matched as written. Rows of name → kind, as
 * ajv's tests are written, then the things that must not drift from the module:
 * no other regex for these suffixes under src/, and package.json's globs and when
 * clauses naming the same suffixes (docs/design/files-by-content.md, "Names").
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { anyCaseGlob, fileKind, isChartFolder, isPlainDataFile, isWorkflowPath, KIND_SUFFIXES, kindBaseName, kindGlob } from '../../src/engine/formats/file-kinds.js';
import { WORKFLOW_GLOB } from '../../src/lsp/workspace-index.js';
import { REPO_ROOT } from './helpers/cli.js';

type Kind = ReturnType<typeof fileKind>;

/** name → the kind its name says (undefined: none; the content decides). */
const KINDS: readonly [string, Kind][] = [
  ['review.statechart.yaml', 'statechart'],
  ['review.statechart.yml', 'statechart'],
  ['review.statechart.json', 'statechart'],
  ['Review.Statechart.yaml', 'statechart'],
  ['REVIEW.STATECHART.YML', 'statechart'],
  ['deploy.StateChart.Json', 'statechart'],
  ['a/b/c.statechart.yaml', 'statechart'],
  ['C:\\work\\Deploy.Statechart.yaml', 'statechart'],
  ['build.flow.yaml', 'flow'],
  ['build.flow.yml', 'flow'],
  ['build.flow.json', 'flow'],
  ['Build.Flow.YAML', 'flow'],
  ['build.FLOW.yml', 'flow'],
  ['review.workflow.json', 'statewright'],
  ['Review.Workflow.json', 'statewright'],
  ['REVIEW.WORKFLOW.JSON', 'statewright'],
  ['/home/me/x/ship.workflow.JSON', 'statewright'],
  // Plain names, and near misses: the content decides, or the file is none of ours.
  ['review.yaml', undefined],
  ['review.json', undefined],
  ['Review.YML', undefined],
  ['review.workflow.yaml', undefined],
  ['review.statechart', undefined],
  ['review.statechart.txt', undefined],
  ['review.statecharts.yaml', undefined],
  ['reviewstatechart.yaml', undefined],
  ['review.flows.yaml', undefined],
  ['workflow.json', undefined],
  ['statechart.yaml/readme.md', undefined],
  ['a.statechart.yaml/b.json', undefined],
  ['', undefined],
];

describe('fileKind: what a name says, ignoring case', () => {
  for (const [name, kind] of KINDS) {
    it(`${JSON.stringify(name)} → ${kind ?? 'none'}`, () => assert.equal(fileKind(name), kind));
  }
  it('undefined (no file) is none', () => assert.equal(fileKind(undefined), undefined));
});

describe('isPlainDataFile: a data extension and no typed suffix', () => {
  const rows: readonly [string, boolean][] = [
    ['code_review.yaml', true],
    ['Code_Review.YML', true],
    ['deploy.JSON', true],
    ['review.workflow.yaml', true],
    ['review.Statechart.yaml', false],
    ['Build.Flow.yml', false],
    ['Ship.Workflow.Json', false],
    ['notes.md', false],
    ['yaml', false],
  ];
  for (const [name, plain] of rows) it(`${name} → ${plain}`, () => assert.equal(isPlainDataFile(name), plain));
});

describe('isWorkflowPath: `*.workflow.json` in any case, or JSON in `.stategate/workflows/` (as written)', () => {
  const rows: readonly [string, boolean][] = [
    ['review.workflow.json', true],
    ['sub/Review.Workflow.JSON', true],
    ['.stategate/workflows/review.json', true],
    ['/ws/.stategate/workflows/Review.JSON', true],
    ['C:\\ws\\.stategate\\workflows\\review.json', true],
    ['.stategate/workflows/sub/review.json', false],
    ['.Stategate/Workflows/review.json', false],
    ['.stategate/workflows/review.yaml', false],
    ['review.json', false],
    ['review.statechart.json', false],
  ];
  for (const [name, yes] of rows) it(`${name} → ${yes}`, () => assert.equal(isWorkflowPath(name), yes));
});

describe('isChartFolder: the `statecharts/` convention, any case', () => {
  const rows: readonly [string, boolean][] = [
    ['statecharts', true],
    ['Statecharts', true],
    ['docs/STATECHARTS', true],
    ['docs/statecharts/', true],
    ['statechart', false],
    ['my-statecharts', false],
    ['statecharts/sub', false],
    ['.', false],
  ];
  for (const [dir, yes] of rows) it(`${dir} → ${yes}`, () => assert.equal(isChartFolder(dir), yes));
});

describe('kindBaseName: the name without its typed suffix or extension', () => {
  const rows: readonly [string, string][] = [
    ['deploy.flow.yaml', 'deploy'],
    ['Deploy.Flow.YML', 'Deploy'],
    ['/a/b/deploy.yaml', 'deploy'],
    ['deploy.workflow.yaml', 'deploy.workflow'],
    ['review.statechart.json', 'review'],
    ['c:\\x\\Ship.Workflow.Json', 'Ship'],
    ['README', 'README'],
  ];
  for (const [file, base] of rows) it(`${file} → ${base}`, () => assert.equal(kindBaseName(file), base));
});

describe('the globs a shell registers match what fileKind reads', () => {
  for (const format of Object.keys(KIND_SUFFIXES) as (keyof typeof KIND_SUFFIXES)[]) {
    it(`kindGlob('${format}') matches exactly the names fileKind gives ${format}, in any case`, () => {
      const matches = picomatch(kindGlob(format), { dot: true });
      for (const [name, kind] of KINDS) {
        if (name === '' || name.includes('\\')) continue; // a glob sees `/` paths
        assert.equal(matches(name.replace(/^\//, '')), kind === format, name);
      }
    });
  }
  it('the language server watches `*.workflow.json` in any case and `.stategate/workflows/*.json`, as its walk reads them', () => {
    const matches = picomatch(WORKFLOW_GLOB, { dot: true });
    for (const file of ['x/review.workflow.json', 'x/Review.Workflow.JSON', '.stategate/workflows/a.json', 'p/.stategate/workflows/B.Json']) assert.ok(matches(file), file);
    for (const file of ['x/review.json', 'x/review.statechart.json', '.Stategate/workflows/a.json']) assert.ok(!matches(file), file);
  });
  it('anyCaseGlob leaves what has no case alone', () => assert.equal(anyCaseGlob('.a-1_'), '.[aA]-1_'));
});

interface PackageJson {
  activationEvents: string[];
  contributes: {
    jsonValidation: { fileMatch: string[]; url: string }[];
    yamlValidation: { fileMatch: string[]; url: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
  };
}

describe("package.json's globs and when clauses name the module's suffixes", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;
  const allSuffixes = Object.values(KIND_SUFFIXES).flat();

  it('a workspace holding any typed suffix (in lowercase) activates the extension', () => {
    const globs = pkg.activationEvents.filter((e) => e.startsWith('workspaceContains:')).map((e) => e.slice('workspaceContains:'.length));
    for (const suffix of allSuffixes) assert.ok(globs.some((g) => picomatch(g, { dot: true })(`sub/x${suffix}`)), `no workspaceContains glob for *${suffix}`);
    // The statecharts/ convention: a plain chart there activates too.
    assert.ok(globs.some((g) => picomatch(g)('statecharts/code_review.yaml')));
  });

  it("each format's schema is associated with its typed suffixes (json for jsonValidation, yaml/yml for yamlValidation), and with nothing else typed", () => {
    const schemaOf: Record<string, string> = { statechart: 'statechart-schema.json', flow: 'flow-schema.json', statewright: 'workflow-schema.json' };
    const entries = [...pkg.contributes.jsonValidation.map((v) => ({ ...v, json: true })), ...pkg.contributes.yamlValidation.map((v) => ({ ...v, json: false }))];
    for (const [format, suffixes] of Object.entries(KIND_SUFFIXES)) {
      for (const suffix of suffixes) {
        const json = suffix.endsWith('.json');
        const hit = entries.filter((v) => v.json === json && v.fileMatch.some((g) => !g.startsWith('!') && picomatch(g, { basename: true })(`x${suffix}`)));
        assert.deepEqual(hit.map((v) => path.basename(v.url)), [schemaOf[format]], `*${suffix}`);
      }
    }
    for (const v of entries) {
      for (const g of v.fileMatch.filter((x) => /^\*\.\w+\.\w+$/.test(x))) assert.ok(allSuffixes.includes(g.slice(1)), `${g} is not a typed suffix of file-kinds.ts`);
    }
  });

  it("the Run Flow menus' when clauses read `.flow.*` names as fileKind does (any case)", () => {
    const whens = Object.values(pkg.contributes.menus).flat().filter((m) => m.command === 'stategate.runFlow' && m.when?.includes('resourceFilename')).map((m) => m.when!);
    assert.equal(whens.length, 3, 'the command palette, the editor title and the Explorer');
    for (const when of whens) {
      const [, source, flags] = /resourceFilename =~ \/(.+)\/([a-z]*)/.exec(when) ?? [];
      assert.ok(source, when);
      const re = new RegExp(source, flags);
      for (const [name, kind] of KINDS) if (!name.includes('/') && !name.includes('\\')) assert.equal(re.test(name), kind === 'flow', `${when} on ${name}`);
    }
  });
});

/**
 * A line of source that decides a file's kind by its name on its own: a regex with an escaped
 * dot before a kind word (`/\.statechart\./`, `'\\.flow\\.'`), a string test of a typed suffix
 * (`endsWith('.workflow.json')`), or the `statecharts` folder compared by name. Words for a
 * person (`*.statechart.yaml` in a message) are none of these.
 */
export function decidesKindByName(line: string): boolean {
  const code = line.trim();
  if (code.startsWith('*') || code.startsWith('//') || code.startsWith('/*')) return false;
  return (
    /\\\.\(?(statechart|flow|workflow)\b/i.test(code) ||
    /\b(statechart|flow|workflow)\\\./i.test(code) ||
    /statecharts(\\\/|\[\\\\\/\]|\\\\)/i.test(code) ||
    /\b(endsWith|startsWith|includes|indexOf|lastIndexOf)\(\s*['"`][^'"`]*\.(statechart|flow|workflow)\./i.test(code) ||
    /[=!]==?\s*['"`]\/?statecharts\/?['"`]|['"`]\/?statecharts\/?['"`]\s*[=!]==?/i.test(code)
  );
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|js|mjs|cjs)$/.test(e.name) && !e.name.endsWith('.generated.js'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Every `file:line: text` under `src` of `root` that decides a kind by name outside file-kinds.ts. */
export function kindRulesOutsideModule(root: string): string[] {
  const module = path.join(root, 'src', 'engine', 'formats', 'file-kinds.ts');
  const out: string[] = [];
  for (const file of sourceFiles(path.join(root, 'src'))) {
    if (file === module) continue;
    fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (decidesKindByName(line)) out.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  return out;
}

describe('one module decides: no other rule for these names under src/', () => {
  it('the scan finds each way such a rule was written, and not the words a message uses', () => {
    const rules = [
      "const STATECHART_FILE = /\\.statechart\\.(ya?ml|json)$/i;",
      "const FLOW_FILE = /\\.flow\\.(ya?ml|json)$/;",
      "if (/\\.(statechart|flow)\\.ya?ml$/i.test(doc.uri.path)) return;",
      "return norm.endsWith('.workflow.json') || x;",
      "const re = new RegExp('\\\\.statechart\\\\.');",
      "return dir === 'statecharts' || dir.endsWith('/statecharts');",
      "const CHART_DIR = /(^|\\/)statecharts\\/[^/]+$/;",
      "replace(/(\\.flow)?\\.(ya?ml|json)$/i, '')",
    ];
    for (const line of rules) assert.ok(decidesKindByName(line), line);
    const words = [
      "message: `a name such as \\`*.statechart.yaml\\`, \\`*.flow.yaml\\` or \\`*.workflow.json\\` says so too.`,",
      " * AGENT-33 statecharts (`*.statechart.yaml|yml|json`, top key `statechart`)",
      "// a plain `deploy.flow.yaml` is a flow",
      "help: 'Runs FlowState flows (*.flow.yaml, or any YAML/JSON with start-at)',",
      "if (s.flow?.tool === 'sub-flow') return;",
      "const file = path.join(dir, 'statecharts', 'a.yaml');",
    ];
    for (const line of words) assert.ok(!decidesKindByName(line), line);
  });

  it('no file under src/ but file-kinds.ts decides a kind by its name', () => {
    assert.deepEqual(kindRulesOutsideModule(REPO_ROOT), []);
  });
});
