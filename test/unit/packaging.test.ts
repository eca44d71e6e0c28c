// The VSIX as Marketplace and Open VSX receive it: packaged by the `package`
// script's own vsce command (no --skip-license, no --allow-missing-repository),
// carrying only what runs in VS Code, and meeting what Open VSX checks when it
// is published. ovsx has no offline check of a VSIX (`ovsx publish` uploads and
// the registry validates; `ovsx verify` compares a published package's
// signature), so the registry's rules are checked here on the VSIX itself:
// the publisher and name patterns, the version's characters, a license file,
// URLs with a host, field sizes and characters, engines.vscode.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, requireBuiltCli } from './helpers/cli';
import { tempDir } from './helpers/temp-dir';

const VSCE = path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));

// vsce's own reading of a VSIX (the zip entries, and package.json + extension.vsixmanifest validated as vsce does).
const vsceZip = require('@vscode/vsce/out/zip.js') as {
  readZip(file: string, filter: (name: string) => boolean): Promise<Map<string, Buffer>>;
  readVSIXPackage(file: string): Promise<{ manifest: any; xmlManifest: any }>;
};

/** What the VSIX may carry, by top-level entry; anything else (src/, test/, bench/, node_modules/, .ci/, maps…) is unexpected. */
const ALLOWED: Readonly<Record<string, RegExp>> = {
  'package.json': /^package\.json$/,
  'README.md': /^README\.md$/,
  'CHANGELOG.md': /^CHANGELOG\.md$/,
  LICENSE: /^LICENSE$/,
  dist: /^dist\/(cli\/)?[\w.-]+\.(js|wasm|css|ttf)$/, // bundles and their assets, no source maps
  media: /^media\/(icon\.png|activity-bar\.svg|walkthrough\/[\w-]+\.md)$/,
  schemas: /^schemas\/[\w.-]+\.json$/,
  syntaxes: /^syntaxes\/[\w.-]+\.json$/,
  docs: /^docs\/images\/[\w-]+\.png$/, // only the walkthrough's screenshots (checked below)
};

function vsceLs(): string[] {
  requireBuiltCli(); // the bundles must exist to be listed
  const r = spawnSync(VSCE, ['ls', '--no-dependencies'], { cwd: REPO_ROOT, encoding: 'utf8', input: '', timeout: 120_000 });
  assert.equal(r.status, 0, `vsce ls failed:\n${r.stderr}`);
  return r.stdout.split('\n').filter(Boolean).sort();
}

type Step = { id: string; title: string; description: string; media: { image?: string; altText?: string; markdown?: string }; completionEvents: string[] };
const walkthroughs: { id: string; title: string; description: string; steps: Step[] }[] = pkg.contributes.walkthroughs ?? [];
const stepMedia = (s: Step): string => (s.media.image ?? s.media.markdown)!;

test('vsce ls lists only what runs in VS Code: the allowed top-level entries, nothing else', () => {
  const files = vsceLs();
  const top = [...new Set(files.map((f) => f.split('/')[0]!))].sort();
  assert.deepEqual(top, Object.keys(ALLOWED).sort(), `top-level entries of the VSIX:\n${files.join('\n')}`);
  const unexpected = files.filter((f) => !ALLOWED[f.split('/')[0]!]!.test(f));
  assert.deepEqual(unexpected, [], 'files outside the allowed patterns');
  // What the manifest points at ships.
  const needed = [
    pkg.main.replace(/^\.\//, ''),
    'dist/cli.js',
    pkg.icon,
    ...pkg.contributes.viewsContainers.activitybar.map((c: { icon: string }) => c.icon),
    ...pkg.contributes.jsonValidation.map((j: { url: string }) => j.url.replace(/^\.\//, '')),
    ...pkg.contributes.grammars.map((g: { path: string }) => g.path.replace(/^\.\//, '')),
    ...walkthroughs.flatMap((w) => w.steps.map(stepMedia)),
  ];
  for (const f of needed) assert.ok(files.includes(f), `${f} is referenced by package.json but not packaged`);
  // docs/ contributes only the walkthrough's images.
  const images = walkthroughs.flatMap((w) => w.steps.map((s) => s.media.image).filter((i): i is string => !!i));
  assert.deepEqual(files.filter((f) => f.startsWith('docs/')), [...new Set(images)].sort());
});

test('the walkthrough takes a new user from an example workflow to a gated agent in four steps, with commands that exist', () => {
  assert.equal(walkthroughs.length, 1);
  const [w] = walkthroughs;
  assert.ok(w!.title && w!.description);
  assert.deepEqual(
    w!.steps.map((s) => s.id),
    ['openWorkflow', 'startRun', 'watchPanel', 'enableEnforcement'],
  );
  const commands = new Set<string>(pkg.contributes.commands.map((c: { command: string }) => c.command));
  const views = new Set<string>(Object.values(pkg.contributes.views as Record<string, { id: string }[]>).flat().map((v) => v.id));
  // VS Code's own commands a step may use (they exist in every VS Code).
  const builtIn = new Set(['workbench.action.quickOpen']);
  for (const s of w!.steps) {
    assert.ok(s.title && s.description, `${s.id}: a title and a description`);
    assert.doesNotMatch(s.description, /`/, `${s.id}: a step's description shows backticks as they are (only links are rendered)`);
    assert.ok(s.completionEvents.length > 0, `${s.id}: a completion event`);
    const media = stepMedia(s);
    assert.ok(media && fs.existsSync(path.join(REPO_ROOT, media)), `${s.id}: media ${media} exists`);
    if (s.media.image) assert.ok(s.media.altText, `${s.id}: an image needs altText`);
    const linked = [...s.description.matchAll(/\]\(command:([\w.-]+)/g)].map((m) => m[1]!);
    assert.ok(linked.length > 0, `${s.id}: a button (a command link) in its description`);
    for (const event of s.completionEvents) {
      const [kind, id] = [event.slice(0, event.indexOf(':')), event.slice(event.indexOf(':') + 1)];
      if (kind === 'onCommand') linked.push(id);
      else if (kind === 'onView') assert.ok(views.has(id), `${s.id}: ${event} names a contributed view`);
      else assert.fail(`${s.id}: unexpected completion event ${event}`);
    }
    for (const id of linked) assert.ok(commands.has(id) || builtIn.has(id), `${s.id}: command ${id} is contributed (or VS Code's own)`);
  }
  // The gated agent is the last step.
  assert.ok(w!.steps.at(-1)!.completionEvents.includes('onCommand:stategate.enableEnforcement'));
});

test('vsce package runs without --skip-license and --allow-missing-repository, and the VSIX meets what Open VSX checks', { timeout: 180_000 }, async (t) => {
  const script: string = pkg.scripts.package;
  assert.doesNotMatch(script, /--skip-license|--allow-missing-repository/);
  const vsceArgs = script
    .split('&&')
    .map((s) => s.trim())
    .find((s) => s.startsWith('vsce package'))!
    .split(/\s+/)
    .slice(1);
  const out = path.join(tempDir('sg-vsix-', t), 'stategate.vsix');
  const o = vsceArgs.indexOf('-o');
  assert.ok(o > 0, `the package script names its output: ${script}`);
  vsceArgs[o + 1] = out;
  requireBuiltCli();
  // stdin is empty: a question (no LICENSE, no repository) is answered "no" and fails the packaging.
  const r = spawnSync(VSCE, vsceArgs, { cwd: REPO_ROOT, encoding: 'utf8', input: '', timeout: 120_000 });
  assert.equal(r.status, 0, `vsce ${vsceArgs.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);

  // Open VSX reads these two entries (ExtensionProcessor); vsce validates the manifest on reading.
  const { manifest, xmlManifest } = await vsceZip.readVSIXPackage(out);
  const entries = await vsceZip.readZip(out, () => true);
  const meta = xmlManifest.PackageManifest.Metadata[0];
  const identity = meta.Identity[0].$;
  const property = (id: string): string | undefined =>
    meta.Properties[0].Property.find((p: { $: { Id: string } }) => p.$.Id === id)?.$.Value;

  // Namespace (publisher) and name: Open VSX's ExtensionValidator pattern and size.
  for (const [field, value] of [['publisher', identity.Publisher], ['name', identity.Id]]) {
    assert.match(value, /^[\w\-+$~]+$/, `${field} ${value}`);
    assert.ok(value.length <= 255);
  }
  assert.equal(identity.Publisher, pkg.publisher);
  assert.equal(identity.Id, pkg.name);
  // Version: not a reserved word, only letters, digits and $+-,.:;_ (and a semver, which vsce wants).
  assert.equal(identity.Version, pkg.version);
  assert.ok(!['latest', 'pre-release', 'reviews'].includes(identity.Version));
  assert.match(identity.Version, /^\d+\.\d+\.\d+([-+][\w.+-]*)?$/);
  assert.equal(identity.TargetPlatform, undefined, 'a universal package');
  // A license: the manifest says which, and the file ships (Open VSX accepts no unlicensed extension).
  assert.equal(manifest.license, 'MIT');
  const licenseEntry = meta.License?.[0];
  assert.ok(licenseEntry && entries.has(licenseEntry.toLowerCase()), `the license file ${licenseEntry} is in the VSIX`);
  assert.match(entries.get(licenseEntry.toLowerCase())!.toString('utf8'), /MIT License[\s\S]*Copyright \(c\) 2026 the stategate authors/);
  assert.ok(entries.has('extension/changelog.md'), 'the changelog ships');
  // Links: URLs with a host (repository, homepage, bugs), as Open VSX checks them.
  assert.equal(manifest.repository.url, 'https://github.com/stategate/stategate');
  for (const id of ['Source', 'Learn', 'Support']) {
    const url = property(`Microsoft.VisualStudio.Services.Links.${id}`);
    assert.ok(url && new URL(url.replace(/^git\+/, '')).host, `Links.${id}: ${url}`);
  }
  // Text fields: no control or format characters, within the registry's sizes.
  const texts: [string, string, number][] = [
    ['displayName', meta.DisplayName[0], 255],
    ['description', meta.Description[0]._, 2048],
    ...String(meta.Categories[0]).split(',').map((c): [string, string, number] => ['categories', c, 255]),
    ...String(meta.Tags[0]).split(',').map((k): [string, string, number] => ['keywords', k, 255]),
  ];
  for (const [field, value, max] of texts) {
    assert.doesNotMatch(value, /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\u2028\u2029]/u, `${field}: ${value}`);
    assert.ok(value.length > 0 && value.length <= max, `${field}: ${value}`);
  }
  for (const k of pkg.keywords) assert.ok(String(meta.Tags[0]).split(',').includes(k), `keyword ${k} is a tag`);
  // The engine VS Code (and Open VSX's compatibility filter) reads.
  assert.equal(property('Microsoft.VisualStudio.Code.Engine'), pkg.engines.vscode);
  assert.equal(manifest.engines.vscode, pkg.engines.vscode);

  // The VSIX holds exactly what `vsce ls` listed (under extension/), plus vsce's two manifests.
  const packaged = [...entries.keys()].filter((e) => e.startsWith('extension/')).map((e) => e.slice('extension/'.length)).sort();
  const listed = vsceLs()
    .map((f) => ({ 'README.md': 'readme.md', 'CHANGELOG.md': 'changelog.md', LICENSE: 'LICENSE.txt' })[f] ?? f)
    .map((f) => f.toLowerCase())
    .sort();
  assert.deepEqual(packaged, listed);
  assert.deepEqual([...entries.keys()].filter((e) => !e.startsWith('extension/')).sort(), ['[content_types].xml', 'extension.vsixmanifest']);
});
