/**
 * The JSON schemas shipped beside the server (schemas/ at the package's root),
 * whose field descriptions hovers show; each read once, when a hover needs it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** dist/lsp-server.js, dist/cli/lsp.js and src/lsp/*.ts all sit one or two folders below the package's root. */
function findSchemaDir(): string | undefined {
  for (const up of ['..', '../..']) {
    const dir = path.resolve(__dirname, up, 'schemas');
    if (fs.existsSync(path.join(dir, 'workflow-schema.json'))) return dir;
  }
  return undefined;
}

export class SchemaDocs {
  private readonly loaded = new Map<string, unknown>();
  private readonly dir: string | undefined;

  constructor(dir?: string) {
    this.dir = dir ?? findSchemaDir();
  }

  /** The schema by file name; null when it cannot be read (no field docs, everything else still works). */
  get(name: string): unknown {
    if (!this.loaded.has(name)) {
      try {
        this.loaded.set(name, this.dir ? JSON.parse(fs.readFileSync(path.join(this.dir, name), 'utf8')) : null);
      } catch {
        this.loaded.set(name, null);
      }
    }
    return this.loaded.get(name);
  }
}
