/**
 * The intermediate representation (IR), by concept. Every loader produces it; validation,
 * the machines, the policy, the panel and the exports read it (docs/architecture.md).
 */
export type * from './json-types.js';
export type * from './source.js';
export type * from './diagnostic.js';
export * from './workflow.js';
export * from './chart.js';
export * from './flow.js';
