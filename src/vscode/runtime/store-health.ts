/**
 * What the status bar says when the shared store cannot be used (issue 20):
 * a short label per failure, so a person sees at a glance that the store (not
 * the run) is the trouble, and a tooltip with what happened and what to do.
 * Every tool call is denied meanwhile; stategate never falls back to the local
 * files, and the text says so. No `vscode` here: the wording is unit-tested.
 */
import type { StoreProblem } from '../../engine/index.js';

const LABELS: Readonly<Record<string, string>> = {
  unreachable: 'store unreachable',
  refused: 'store unreachable',
  timeout: 'store not answering',
  connection_lost: 'store connection lost',
  unavailable: 'store refuses connections',
  auth_failed: 'store login refused',
  tls_refused: 'store TLS refused',
  schema_too_new: 'store schema too new',
  permission_denied: 'store access denied',
  database_missing: 'store database missing',
  lock_timeout: 'store busy',
  invalid_url: 'store URL invalid',
  no_project: 'no project for the store',
};

/** The status bar's words for a store failure. */
export function storeHealthLabel(problem: StoreProblem): string {
  return LABELS[problem.reason] ?? 'store unusable';
}

/** The tooltip's text (Markdown, without the command links): the server, what happened, what to do. */
export function storeHealthDetails(problem: StoreProblem, location: string): string {
  return [
    `**The shared store cannot be used** (${storeHealthLabel(problem)}): \`${location}\``,
    `${problem.message}.`,
    `To fix: ${problem.recovery}.`,
    'Every tool call is denied until the store can be used again; stategate does not fall back to the local files.',
  ].join('\n\n');
}
