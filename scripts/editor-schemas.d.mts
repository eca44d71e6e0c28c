// Types for scripts/editor-schemas.mjs, which test/unit/editor-schemas.test.ts imports.
export function completionOnly(node: unknown): unknown;
/** Writes dist/editor-schemas/ under `root`; returns that folder. */
export function writeEditorSchemas(root: string): string;
