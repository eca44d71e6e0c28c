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

/**
 * The last text read and its parse. One check reads the same text two or three
 * times (the format named by the content, format-sniff.ts, whether it matches
 * the file's name, then the loader), and the package's parse is most of a
 * check's time: on the 1,000-state benchmark chart, three times as long as
 * the rules. Equal texts give equal parses, so the second read is the first.
 */
let last: { readonly text: string; readonly parsed: ParsedYaml } | undefined;

export function parseYamlTree(text: string): ParsedYaml {
  // Too long to read in time (yaml-size.ts): one error, and the package is not even loaded.
  const tooLong = yamlSizeError(text);
  if (tooLong) return { diagnostics: [tooLong] };
  if (last?.text !== text) {
    packagePath ??= require('./yaml-package.js') as YamlPackagePath;
    last = { text, parsed: withinDepth(packagePath.parseWithYaml(text)) };
  }
  // The tree is only read; the list is the caller's to extend.
  return { ...last.parsed, diagnostics: [...last.parsed.diagnostics] };
}

/** The parse, or no tree and an error where it nests past MAX_TREE_DEPTH (tree-depth.ts says why). */
function withinDepth(parsed: ParsedYaml): ParsedYaml {
  const deep = parsed.root && depthError(parsed.root, 'YAML');
  return deep ? { diagnostics: [...parsed.diagnostics, deep] } : parsed;
}
