/**
 * Stage pipelines (docs/pipelines.md): stage executions, the completion step,
 * turn accounting, one-shot grants, the prompt, and the audit timeline.
 */
export * from '../model/pipeline.js';
export { checkPayload, payloadErrorText, propertyPath, type PayloadCheck } from './payload-check.js';
export { livePositions, stageFor, scopeFor, type LivePosition, type StageAt } from './positions.js';
export { syncStages, mayBePipeline } from './stage-sync.js';
export { completeStage, type CompletionOutcome } from './completion.js';
export { completionHowTo, completionRequired, isCompletionEvent, liveCompletions, type LiveCompletion } from './completion-only.js';
export { beginTurn, STAGE_FAIL_EVENT, type TurnOutcome } from './turns.js';
export { askGrant, answerGrant, argsDigest, argsSummary, consumeGrant, findGrant, settleAskedGrant, typedDenial, type AnswerOutcome, type AskOutcome, type TypedDenial } from './grants.js';
export { activeStages, promptSent, stageView, workflowStageTools, type StageTool, type StageView } from './prompt.js';
export { auditText, auditTimeline, isStageEvent, type AuditCompletion, type AuditGrant, type AuditStage, type AuditTimeline } from './audit.js';
export { bareNamesAreOurs, completionToolCalled, STATEGATE_SERVER } from './completion-call.js';
export { isSecurityMode, securityModeOf, setSecurityMode, SECURITY_MODES, type SecurityMode, type SecurityModeOutcome, type SecurityModeSource } from './security-mode.js';
