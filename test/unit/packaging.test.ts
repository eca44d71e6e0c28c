// The VSIX as Marketplace and Open VSX receive it: packaged by the `package`
// script's own vsce command (no --skip-license, no --allow-missing-repository),
// carrying only what runs in VS Code, and accepted by Open VSX. ovsx has no
// offline check of a VSIX (`ovsx publish` uploads it unread and the registry
// validates; `ovsx verify` compares a published package's signature), so the
// registry's rules are checked here on the VSIX itself (the publisher and name
// patterns, the version's characters, a license file, URLs with a host, field
// sizes and characters, engines.vscode), and the real `ovsx publish` uploads it
// to a loopback stand-in of the registry that validates it as Open VSX does.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { REPO_ROOT, requireBuiltCli } from './helpers/cli';
import { OPEN_VSX_NAME, OPEN_VSX_RESERVED_VERSIONS, startOpenVsxStandIn } from './helpers/openvsx-stand-in';
import { tempDir } from './helpers/temp-dir';
import { readZipEntries, writeZip } from './helpers/vsix-zip';

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
  // bundles and their assets (no source maps), and the completion-only schemas for VS Code's JSON service
  dist: /^dist\/((cli\/)?[\w.-]+\.(js|wasm|css|ttf)|editor-schemas\/[\w-]+\.json)$/,
  media: /^media\/(icon\.png|activity-bar\.svg|walkthrough\/[\w-]+\.md)$/,
  schemas: /^schemas\/[\w.-]+\.json$/,
  syntaxes: /^syntaxes\/[\w.-]+\.json$/,
  docs: /^docs\/(images\/[\w-]+\.png|team\.md)$/, // the walkthrough's screenshots and the shared store's docs (checked below)
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
  // The hook's V8 code caches (src/cli/code-cache.ts) are made where it runs, for that runtime: never shipped,
  // though the build warms this checkout's (and a temporary one of a concurrent write ends in .cache too).
  const caches = fs.readdirSync(path.join(REPO_ROOT, 'dist', 'cli')).filter((f) => f.endsWith('.cache'));
  assert.deepEqual(files.filter((f) => f.endsWith('.cache')), [], `code caches packaged (dist/cli holds ${caches.join(', ') || 'none'})`);
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
  // docs/ contributes the walkthrough's images and docs/team.md (stategate.openStoreDocs, from the status bar when the shared store fails).
  const images = walkthroughs.flatMap((w) => w.steps.map((s) => s.media.image).filter((i): i is string => !!i));
  assert.deepEqual(files.filter((f) => f.startsWith('docs/')), [...new Set([...images, 'docs/team.md'])].sort());
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

test('the walkthrough reads in a narrow editor group: no line of its Markdown media is longer than 50 characters (code blocks do not wrap)', () => {
  for (const s of walkthroughs[0]!.steps) {
    if (!s.media.markdown) continue;
    const long = fs.readFileSync(path.join(REPO_ROOT, s.media.markdown), 'utf8').split('\n').filter((l) => l.length > 50);
    assert.deepEqual(long, [], s.media.markdown);
  }
});

// Made here, not in the first test that packages: node:test's `after` called during a test is that test's hook.
const vsixDir = tempDir('sg-vsix-', { after });
let packaged: string | undefined;
/** stategate.vsix as the `package` script's vsce command makes it, packaged once for the tests of this file that read it. */
function packagedVsix(): string {
  if (packaged) return packaged;
  const script: string = pkg.scripts.package;
  const vsceArgs = script
    .split('&&')
    .map((s) => s.trim())
    .find((s) => s.startsWith('vsce package'))!
    .split(/\s+/)
    .slice(1);
  const out = path.join(vsixDir, 'stategate.vsix');
  const o = vsceArgs.indexOf('-o');
  assert.ok(o > 0, `the package script names its output: ${script}`);
  vsceArgs[o + 1] = out;
  requireBuiltCli();
  // stdin is empty: a question (no LICENSE, no repository) is answered "no" and fails the packaging.
  const r = spawnSync(VSCE, vsceArgs, { cwd: REPO_ROOT, encoding: 'utf8', input: '', timeout: 120_000 });
  assert.equal(r.status, 0, `vsce ${vsceArgs.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return (packaged = out);
}

test('vsce package runs without --skip-license and --allow-missing-repository, and the VSIX meets what Open VSX checks', { timeout: 180_000 }, async () => {
  assert.doesNotMatch(pkg.scripts.package, /--skip-license|--allow-missing-repository/);
  const out = packagedVsix();

  // Open VSX reads these two entries (ExtensionProcessor); vsce validates the manifest on reading.
  const { manifest, xmlManifest } = await vsceZip.readVSIXPackage(out);
  const entries = await vsceZip.readZip(out, () => true);
  const meta = xmlManifest.PackageManifest.Metadata[0];
  const identity = meta.Identity[0].$;
  const property = (id: string): string | undefined =>
    meta.Properties[0].Property.find((p: { $: { Id: string } }) => p.$.Id === id)?.$.Value;

  // Namespace (publisher) and name: Open VSX's ExtensionValidator pattern and size.
  for (const [field, value] of [['publisher', identity.Publisher], ['name', identity.Id]]) {
    assert.match(value, OPEN_VSX_NAME, `${field} ${value}`);
    assert.ok(value.length <= 255);
  }
  assert.equal(identity.Publisher, pkg.publisher);
  assert.equal(identity.Id, pkg.name);
  // Version: not a reserved word, only letters, digits and $+-,.:;_ (and a semver, which vsce wants).
  assert.equal(identity.Version, pkg.version);
  assert.ok(!OPEN_VSX_RESERVED_VERSIONS.includes(identity.Version));
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

// `ovsx publish` as a publisher runs it, against a registry on 127.0.0.1.
const OVSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'ovsx');
const LOOPBACK_ONLY = path.join(__dirname, 'helpers', 'loopback-only.cjs');
const TOKEN = 'stategate-publisher-token';
const OTHER_TOKEN = 'another-namespace-token';
/** The namespaces of the stand-in registry: stategate's, and one whose member is not stategate's publisher. */
const NAMESPACES = { [pkg.publisher]: [TOKEN], 'someone-else': [OTHER_TOKEN] };

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * The environment of an ovsx child: no registry, token or proxy from the caller's
 * environment, a HOME of its own (no ~/.ovsx, no keychain of the user), and
 * loopback-only.cjs preloaded so that any other host ends it with exit 97.
 */
function ovsxEnv(home: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(OVSX_.*|(HTTPS?|ALL|NO)_PROXY|NODE_OPTIONS|NODE_USE_ENV_PROXY)$/i.test(k)),
  );
  return { ...env, HOME: home, NODE_OPTIONS: `--require ${JSON.stringify(LOOPBACK_ONLY)}` };
}

/** Run node_modules/.bin/ovsx (asynchronously: the stand-in answers on this process's event loop). */
function ovsx(args: readonly string[], home: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(OVSX, args, { cwd: home, env: ovsxEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('the loopback-only guard ends a child process that reaches for another host', () => {
  for (const url of ['http://192.0.2.1/', 'https://example.invalid/']) {
    const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(url.split(':')[0])}).get(${JSON.stringify(url)})`], {
      env: ovsxEnv(REPO_ROOT),
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 97, `${url}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`loopback-only: refused to reach ${new URL(url).hostname}`));
  }
});

test('ovsx publish uploads the VSIX byte for byte with the token, and Open VSX accepts it as publisher.name at package.json version', { timeout: 180_000 }, async (t) => {
  const vsix = packagedVsix();
  const registry = await startOpenVsxStandIn(t, NAMESPACES);
  const r = await ovsx(['publish', vsix, '-r', registry.url, '-p', TOKEN], tempDir('sg-ovsx-', t));
  assert.equal(r.code, 0, `ovsx publish failed:\n${r.stdout}\n${r.stderr}`);
  // What ovsx sent: one upload, nothing else (no namespace or token lookup, no other path).
  assert.deepEqual(
    registry.requests.map((q) => `${q.method} ${q.path}`),
    ['POST /api/-/publish'],
  );
  const [upload] = registry.requests;
  assert.equal(upload!.token, TOKEN);
  assert.equal(upload!.contentType, 'application/octet-stream');
  assert.equal(sha256(upload!.body), sha256(fs.readFileSync(vsix)), 'the registry received exactly the VSIX');
  // What the registry read from it, and what ovsx reports back.
  assert.deepEqual(registry.published.map(({ manifest, ...identity }) => identity), [
    { namespace: pkg.publisher, name: pkg.name, version: pkg.version, targetPlatform: 'universal' },
  ]);
  const { publisher, name, version, license } = registry.published[0]!.manifest;
  assert.deepEqual({ publisher, name, version, license }, { publisher: pkg.publisher, name: pkg.name, version: pkg.version, license: pkg.license });
  assert.ok(r.stdout.includes(`Published ${pkg.publisher}.${pkg.name} v${pkg.version}\n`), r.stdout);
});

test('a VSIX or a token Open VSX refuses: ovsx uploads it, reports the registry reason and exits 1', { timeout: 300_000 }, async (t) => {
  const vsix = packagedVsix();
  const dir = tempDir('sg-ovsx-', t);
  const original = await readZipEntries(fs.readFileSync(vsix));

  /** A copy of the VSIX with `edit` applied to its entries (by exact name). */
  async function copy(label: string, edit: (entries: Map<string, Buffer>) => void, opts: { zip64?: boolean } = {}): Promise<string> {
    const entries = new Map([...original].map(([n, e]) => [n, e.data]));
    edit(entries);
    const file = path.join(dir, `${label}.vsix`);
    await writeZip(entries, file, opts);
    return file;
  }
  function editText(entries: Map<string, Buffer>, name: string, change: (text: string) => string): void {
    const before = entries.get(name)!.toString('utf8');
    const changed = change(before);
    assert.notEqual(changed, before, `the edit changes ${name}`);
    entries.set(name, Buffer.from(changed));
  }
  const editManifest = (entries: Map<string, Buffer>, change: (manifest: any) => void): void =>
    editText(entries, 'extension/package.json', (text) => {
      const manifest = JSON.parse(text);
      change(manifest);
      return JSON.stringify(manifest, null, 2);
    });

  async function publish(file: string, token: string, registry?: Awaited<ReturnType<typeof startOpenVsxStandIn>>) {
    registry ??= await startOpenVsxStandIn(t, NAMESPACES);
    const r = await ovsx(['publish', file, '-r', registry.url, '-p', token], dir);
    // The registry, not ovsx, decided: it received the file as it is.
    assert.equal(sha256(registry.requests.at(-1)!.body), sha256(fs.readFileSync(file)), `${file} was uploaded`);
    return { ...r, registry };
  }

  // The copies are made by rewriting the zip: unchanged, a rewrite is accepted (so a refusal below is its edit's).
  const rewritten = await publish(await copy('rewritten', () => {}), TOKEN);
  assert.equal(rewritten.code, 0, rewritten.stderr);

  const refusals: [string, string, string][] = [
    [vsix, 'not-a-token', 'Invalid access token.'],
    [vsix, OTHER_TOKEN, `Insufficient access rights for publisher: ${pkg.publisher}`],
    [
      await copy('unknown-publisher', (e) => {
        editText(e, 'extension.vsixmanifest', (x) => x.replace(`Publisher="${pkg.publisher}"`, 'Publisher="stategate-fork"'));
        editManifest(e, (m) => (m.publisher = 'stategate-fork'));
      }),
      TOKEN,
      "Unknown publisher: stategate-fork\nUse the 'create-namespace' command to create a namespace corresponding to your publisher name.",
    ],
    [
      await copy('invalid-name', (e) => {
        editText(e, 'extension.vsixmanifest', (x) => x.replace(`Id="${pkg.name}"`, 'Id="state.gate"'));
        editManifest(e, (m) => (m.name = 'state.gate'));
      }),
      TOKEN,
      'Invalid extension name: state.gate',
    ],
    [
      await copy('no-license', (e) => {
        editText(e, 'extension.vsixmanifest', (x) =>
          x.replace(/<License>[^<]*<\/License>/, '').replace(/<Asset Type="Microsoft\.VisualStudio\.Services\.Content\.License"[^>]*\/>/, ''),
        );
        editManifest(e, (m) => delete m.license);
        assert.ok(e.delete('extension/LICENSE.txt'));
      }),
      TOKEN,
      'This extension cannot be accepted because it has no license.',
    ],
    [await copy('no-package-json', (e) => assert.ok(e.delete('extension/package.json'))), TOKEN, 'Entry not found: extension/package.json'],
    [await copy('zip64-extra-fields', () => {}, { zip64: true }), TOKEN, 'Extension contains zip entries with unsupported extra fields'],
  ];
  for (const [file, token, reason] of refusals) {
    const r = await publish(file, token);
    assert.equal(r.code, 1, `${path.basename(file)} with ${token} is refused:\n${r.stdout}\n${r.stderr}`);
    assert.ok(r.stderr.includes(`\u274c  ${reason}\n`), `${path.basename(file)}: ovsx reports "${reason}":\n${r.stderr}`);
    assert.deepEqual(r.registry.published, []);
  }

  // The same version twice.
  const first = await publish(vsix, TOKEN);
  assert.equal(first.code, 0, first.stderr);
  const again = await publish(vsix, TOKEN, first.registry);
  assert.equal(again.code, 1);
  assert.ok(again.stderr.includes(`Extension ${pkg.publisher}.${pkg.name} ${pkg.version} is already published.`), again.stderr);
  assert.equal(first.registry.published.length, 1);
});
