/** Statechart handlers (docs/statechart-handlers.md) and the one trust store of files a person trusts to run. */
export { runPendingHandlers, pendingOf, handlerLines, MAX_HANDLERS_PER_CALL, type HandlerHost, type HandlerReport, type TrustQuestion } from './run-handlers.js';
export { pendingHandlers, type PendingHandler, type HandlerWork } from './pending.js';
export { trustContent, trustState, trustFilePath, TRUST_FILE, type TrustState } from './trust-store.js';
export { flowTrust, flowTrustCheck, trustFlow, untrustedParts, type FlowTrust, type FlowTrustPart } from './flow-trust.js';
export { execCommand, type ExecResult } from './exec-command.js';
