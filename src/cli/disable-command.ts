/** `stategate disable`: clients-command.ts. */
export { disableCommand as command } from './clients-command.js';
