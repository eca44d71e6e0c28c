// A loopback stand-in for the Open VSX registry's publish API, so that the real
// `ovsx publish` runs in a test without the network. ovsx checks nothing of a
// packaged VSIX before it uploads it (lib/publish.js: given a token it does not
// even open the file); the registry decides. So the stand-in answers
// POST /api/-/publish?token=… as the registry's server does, with its checks in
// its order and its messages (RegistryAPI, ExtensionProcessor,
// PublishExtensionVersionHandler, ExtensionValidator, the enforced
// MaliciousZipCheck): a known token, a readable zip with extension.vsixmanifest
// and extension/package.json, no zip entry with extra fields, a namespace
// (the manifest's publisher) that exists and the token's owner may publish to,
// a valid name, an unreserved version not yet published, a license. It answers
// 201 with the extension's JSON, or the status and {"error"} the registry sends.
// Every request is recorded, whatever its path, to show what ovsx sent.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import type { CleanupOwner } from './temp-dir';
import { readZipEntries, type VsixEntry } from './vsix-zip';

const parseXmlManifest = (require('@vscode/vsce/out/xml.js') as { parseXmlManifest(xml: string): Promise<any> }).parseXmlManifest;

/** ExtensionValidator's pattern for a namespace and an extension name. */
export const OPEN_VSX_NAME = /^[\w\-+$~]+$/;
/** Version strings the registry reserves for its own URLs. */
export const OPEN_VSX_RESERVED_VERSIONS: readonly string[] = ['latest', 'pre-release', 'reviews'];

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly token: string | null;
  readonly contentType: string | undefined;
  readonly body: Buffer;
}

export interface PublishedExtension {
  readonly namespace: string;
  readonly name: string;
  readonly version: string;
  readonly targetPlatform: string;
  /** The uploaded extension/package.json. */
  readonly manifest: { publisher?: unknown; name?: unknown; version?: unknown; license?: unknown };
}

export interface OpenVsxStandIn {
  /** The registry URL to give ovsx (-r). */
  readonly url: string;
  readonly requests: ReceivedRequest[];
  readonly published: PublishedExtension[];
}

type Answer = { status: number; json: object };
const refuse = (status: number, error: string): Answer => ({ status, json: { error } });

/**
 * Listen on 127.0.0.1 (a free port) until `owner` ends. `namespaces` maps each
 * namespace that exists to the tokens of its members; every token listed is valid.
 */
export async function startOpenVsxStandIn(owner: CleanupOwner, namespaces: Readonly<Record<string, readonly string[]>>): Promise<OpenVsxStandIn> {
  const requests: ReceivedRequest[] = [];
  const published: PublishedExtension[] = [];
  const tokens = new Set(Object.values(namespaces).flat());

  async function publish(token: string | null, upload: Buffer): Promise<Answer> {
    if (!token || !tokens.has(token)) return refuse(401, 'Invalid access token.');
    let entries: Map<string, VsixEntry>;
    try {
      entries = await readZipEntries(upload);
    } catch (err) {
      return refuse(400, `Could not read zip file: ${(err as Error).message}`);
    }
    const xml = entries.get('extension.vsixmanifest');
    if (!xml) return refuse(400, 'Entry not found: extension.vsixmanifest');
    const packageJson = entries.get('extension/package.json');
    if (!packageJson) return refuse(400, 'Entry not found: extension/package.json');
    let manifest: PublishedExtension['manifest'];
    try {
      manifest = JSON.parse(packageJson.data.toString('utf8'));
    } catch (err) {
      return refuse(400, `Invalid JSON format in extension/package.json: ${(err as Error).message}`);
    }
    if ([...entries.values()].some((e) => e.extraFields > 0)) {
      return refuse(400, 'Extension contains zip entries with unsupported extra fields');
    }
    const vsixManifest = (await parseXmlManifest(xml.data.toString('utf8'))).PackageManifest;
    const meta = vsixManifest.Metadata[0];
    const identity: { Publisher?: string; Id?: string; Version?: string; TargetPlatform?: string } = meta.Identity?.[0]?.$ ?? {};
    const namespace = identity.Publisher ?? '';
    const members = namespaces[namespace];
    if (!members) {
      return refuse(400, `Unknown publisher: ${namespace}\nUse the 'create-namespace' command to create a namespace corresponding to your publisher name.`);
    }
    if (!members.includes(token)) return refuse(403, `Insufficient access rights for publisher: ${namespace}`);
    const name = identity.Id ?? '';
    if (!OPEN_VSX_NAME.test(name)) return refuse(400, `Invalid extension name: ${name}`);
    const version = identity.Version ?? '';
    if (OPEN_VSX_RESERVED_VERSIONS.includes(version)) return refuse(400, `The version string '${version}' is reserved.`);
    const targetPlatform = identity.TargetPlatform ?? 'universal';
    if (published.some((p) => p.namespace === namespace && p.name === name && p.version === version && p.targetPlatform === targetPlatform)) {
      return refuse(400, `Extension ${namespace}.${name} ${version} is already published.`);
    }
    // A license: package.json's identifier, or the file the VSIX manifest names (<License>, else the License asset).
    const licensePath: string | undefined =
      meta.License?.[0] ??
      vsixManifest.Assets?.[0]?.Asset?.find((a: { $: { Type: string } }) => a.$.Type === 'Microsoft.VisualStudio.Services.Content.License')?.$.Path;
    if (licensePath && !entries.has(licensePath)) return refuse(400, `Entry not found: ${licensePath}`);
    if (!(typeof manifest.license === 'string' && manifest.license) && !licensePath) {
      return refuse(400, 'This extension cannot be accepted because it has no license.');
    }
    published.push({ namespace, name, version, targetPlatform, manifest });
    return { status: 201, json: { namespace, name, version, targetPlatform } };
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await buffer(req);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const token = url.searchParams.get('token');
      requests.push({ method: req.method ?? '', path: url.pathname, token, contentType: req.headers['content-type'], body });
      const answer =
        req.method === 'POST' && url.pathname === '/api/-/publish'
          ? await publish(token, body)
          : refuse(404, `The stand-in serves only POST /api/-/publish, not ${req.method} ${url.pathname}`);
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer.json));
    })().catch((err: Error) => {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: `stand-in failed: ${err.stack}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  owner.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, published };
}
