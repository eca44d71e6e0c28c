/**
 * What each alias of a parsed YAML document refers to, found in one walk.
 *
 * The `yaml` package's `Alias.resolve(doc)` answers the same question (the last
 * node with that anchor before the alias, in document order), but each call
 * walks the whole document again, copying the path of ancestors at every level:
 * on a deeply nested document that is quadratic per alias (67 ms CPU for one
 * alias in a 14 KB fuzzed chart with ~1,500 levels). Here the document is
 * walked once, without recursion, in the order the package's `visit` uses
 * (a node before its children; a pair's key before its value), so every alias
 * gets the node `Alias.resolve` would return.
 */
import { isAlias, isCollection, isPair, isScalar, type Alias, type Document, type Node as YamlNode } from 'yaml';

export class AliasTargets {
  private targets: Map<Alias, YamlNode | undefined> | undefined;

  constructor(private readonly doc: Document.Parsed) {}

  /** The node `alias` refers to, or undefined when no anchor of its name comes before it. */
  resolve(alias: Alias): YamlNode | undefined {
    this.targets ??= aliasTargets(this.doc.contents);
    return this.targets.get(alias);
  }
}

function aliasTargets(root: unknown): Map<Alias, YamlNode | undefined> {
  const targets = new Map<Alias, YamlNode | undefined>();
  const lastAnchored = new Map<string, YamlNode>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isAlias(node)) {
      targets.set(node, lastAnchored.get(node.source));
    } else if (isPair(node)) {
      stack.push(node.value, node.key);
    } else if (isScalar(node) || isCollection(node)) {
      if (node.anchor) lastAnchored.set(node.anchor, node);
      if (isCollection(node)) for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    }
  }
  return targets;
}
