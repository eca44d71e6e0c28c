/**
 * YAML text -> the same tree jsonc-parser builds for JSON (`JsonNode`), with
 * the syntax errors as diagnostics. Plain block YAML (what people and the
 * `yaml` package's `stringify` write) is read by the fast path
 * (fast-yaml.ts); anything else by the `yaml` package (yaml-package.ts, which
 * says how its tree and ranges are made). The package is required only then:
 * a hook deciding on a plain-YAML chart never loads it (scripts/build.mjs).
 */
import { fastYamlTree } from './fast-yaml.js';
import type { ParsedYaml } from './yaml-package.js';
import { depthError } from './tree-depth.js';

export type { ParsedYaml };

type YamlPackagePath = typeof import('./yaml-package.js');
let packagePath: YamlPackagePath | undefined;

export function parseYamlTree(text: string): ParsedYaml {
  const fast = fastYamlTree(text);
  if (fast) return withinDepth({ root: fast, diagnostics: [] });
  packagePath ??= require('./yaml-package.js') as YamlPackagePath;
  return withinDepth(packagePath.parseWithYaml(text));
}

/** The parse, or no tree and an error where it nests past MAX_TREE_DEPTH (tree-depth.ts says why). */
function withinDepth(parsed: ParsedYaml): ParsedYaml {
  const deep = parsed.root && depthError(parsed.root, 'YAML');
  return deep ? { diagnostics: [...parsed.diagnostics, deep] } : parsed;
}
