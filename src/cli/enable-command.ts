/** `stategate enable`: clients-command.ts. */
export { enableCommand as command } from './clients-command.js';
