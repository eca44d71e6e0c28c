/**
 * Nodes aliases may expand to, in all, in one document: a "billion laughs"
 * document stops here instead of exhausting memory (yaml-package.ts's
 * Converter reports it; fast-yaml-anchors.ts leaves such a document to it).
 * A file of its own so the fast path reads it without loading the `yaml` package.
 */
export const ALIAS_BUDGET = 10_000;
