/**
 * What the engine outside this folder runs of the statechart interpreter and
 * its expression language (../expr/, with jsep): the one file lazy.ts loads.
 * The agent hook's bundle points that require at a bundle of this file
 * (dist/cli/hook-statechart.js, scripts/build.mjs), so deciding a call on a
 * flat workflow's run never compiles the interpreter.
 */
export * from './index.js';
export { jumpTo } from './force.js';
export { ROOT, chartTable } from './table.js';
export { evaluateText, isTruthy } from '../expr/index.js';
