/**
 * One spelling of the product's name wherever a person reads it: "stategate",
 * as the README, the CLI (`stategate`), the commands' category and every
 * message spell it (issue 32, item 9). Any other casing of the word
 * ("Stategate", "StateGate", "STATEGATE", "State Gate") is refused in what
 * the extension, the CLI and the docs show.
 *
 * Not prose, and exempt by construction: identifiers, where the name is part
 * of a longer word (`isStategateHookCommand`, `StategateApi`,
 * `STATEGATE_STATE_DIR`: no word boundary, so never matched), and one path
 * written in capitals on purpose (`.STATEGATE/active`, a case-insensitive
 * disk), matched only right after a dot. VS Code's modern UI capitalises the
 * side bar's title itself (CSS `text-transform: capitalize`): not ours.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');
/** Another spelling of the name as a word of its own (not after a dot: a path). */
const OTHER_SPELLING = /(?<![.\w])(?:Stategate|StateGate|STATEGATE|State[ -]Gate|stateGate)(?!\w)/g;

/** Every string in package.json that VS Code shows a person, with where it is. */
function visibleStrings(pkg: Record<string, unknown>): [where: string, text: string][] {
  const out: [string, string][] = [];
  const VISIBLE = new Set(['displayName', 'description', 'title', 'category', 'name', 'fullName', 'label', 'contextualTitle', 'markdownDescription', 'enumDescriptions', 'markdownEnumDescriptions', 'contents', 'altText', 'userDescription', 'modelDescription', 'shortTitle', 'deprecationMessage', 'markdownDeprecationMessage']);
  const walk = (v: unknown, where: string, key: string): void => {
    if (typeof v === 'string') {
      if (VISIBLE.has(key)) out.push([where, v]);
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${where}[${i}]`, key));
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, `${where}.${k}`, k);
    }
  };
  walk(pkg, 'package.json', '');
  return out;
}

function filesUnder(dir: string, ext: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && ext.test(e.name) && !e.name.endsWith('.generated.js'))
    .map((e) => path.join(e.parentPath, e.name));
}

test('package.json names the product "stategate" wherever VS Code shows it', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Record<string, unknown> & { contributes: { commands: { category: string }[]; chatParticipants: { fullName: string }[]; viewsContainers: { activitybar: { title: string }[] } } };
  assert.equal(pkg['displayName'], 'stategate');
  assert.deepEqual([...new Set(pkg.contributes.commands.map((c) => c.category))], ['stategate']);
  assert.equal(pkg.contributes.chatParticipants[0]!.fullName, 'stategate');
  assert.equal(pkg.contributes.viewsContainers.activitybar[0]!.title, 'stategate');
  const strings = visibleStrings(pkg);
  assert.ok(strings.length > 60, `the walk finds the visible strings (${strings.length})`);
  const wrong = strings.filter(([, text]) => text.match(OTHER_SPELLING) !== null);
  assert.deepEqual(wrong, []);
});

test('the extension, the language server, the CLI, the panel and the docs spell it "stategate"', () => {
  const files = [
    ...filesUnder(path.join(REPO, 'src'), /\.(ts|mjs|js)$/),
    ...filesUnder(path.join(REPO, 'webview'), /\.ts$/),
    ...filesUnder(path.join(REPO, 'docs'), /\.md$/),
    ...filesUnder(path.join(REPO, 'media'), /\.md$/),
    ...filesUnder(path.join(REPO, 'examples'), /\.(md|json|ya?ml)$/),
    ...filesUnder(path.join(REPO, 'schemas'), /\.json$/),
    path.join(REPO, 'README.md'),
  ];
  assert.ok(files.some((f) => f.includes(path.join('src', 'vscode'))) && files.length > 200, `the scan reads the sources (${files.length} files)`);
  const wrong: string[] = [];
  for (const file of files) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(OTHER_SPELLING)) wrong.push(`${path.relative(REPO, file)}:${i + 1}: ${m[0]} in ${line.trim().slice(0, 120)}`);
    });
  }
  assert.deepEqual(wrong, []);
});
