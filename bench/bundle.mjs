// How the benchmark scripts bundle what they measure: with esbuild, for Node,
// the way the product itself is bundled (not through tsx), into
// node_modules/.cache/stategate-bench so the bundle resolves packages (and the
// shell parser's WASM) from the repository.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

export function benchCacheDir(root) {
  const dir = join(root, 'node_modules', '.cache', 'stategate-bench');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Bundles `entry` to `outfile` (CommonJS for Node 20); `extra` adds esbuild options. */
export async function bundleForNode(entry, outfile, extra = {}) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    mainFields: ['module', 'main'],
    // An ES module that finds its WASM through import.meta.url: loaded as the package, not bundled.
    external: ['web-tree-sitter'],
    logLevel: 'warning',
    ...extra,
  });
}
