/**
 * Frozen empty values the loaders put in the IR wherever a list or record is
 * empty (most of a large chart's `actions`, `exit`, `invoke`, `children`,
 * rule lists...). The IR is read-only, so one shared value serves every node:
 * a 1,000-node chart otherwise keeps about 10,000 empty arrays alive through
 * each check, and copying them is part of what garbage collection costs there.
 * Frozen, so a write anywhere throws (modules run in strict mode) instead of
 * changing every node at once.
 */
export const NONE: readonly never[] = [];

export const NO_ENTRIES: Readonly<Record<string, never>> = Object.freeze({});
