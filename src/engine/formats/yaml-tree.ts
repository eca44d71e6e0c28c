/**
 * YAML text -> the same tree jsonc-parser builds for JSON (`JsonNode`), with
 * the syntax errors as diagnostics, read by the `yaml` package (yaml-package.ts
 * says how its tree and ranges are made). The package is required only here,
 * on the first YAML document: a hook deciding on a JSON workflow never loads
 * it (scripts/build.mjs).
 */
import type { ParsedYaml } from './yaml-package.js';
import { depthError } from './tree-depth.js';
import { yamlSizeError } from './yaml-size.js';

export type { ParsedYaml };

type YamlPackagePath = typeof import('./yaml-package.js');
let packagePath: YamlPackagePath | undefined;

export function parseYamlTree(text: string): ParsedYaml {
  // Too long to read in time (yaml-size.ts): one error, and the package is not even loaded.
  const tooLong = yamlSizeError(text);
  if (tooLong) return { diagnostics: [tooLong] };
  packagePath ??= require('./yaml-package.js') as YamlPackagePath;
  return withinDepth(packagePath.parseWithYaml(text));
}

/** The parse, or no tree and an error where it nests past MAX_TREE_DEPTH (tree-depth.ts says why). */
function withinDepth(parsed: ParsedYaml): ParsedYaml {
  const deep = parsed.root && depthError(parsed.root, 'YAML');
  return deep ? { diagnostics: [...parsed.diagnostics, deep] } : parsed;
}
