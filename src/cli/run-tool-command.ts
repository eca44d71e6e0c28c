/**
 * `stategate run tool|result`: the policy's decisions before and after a tool
 * call. Filled in with the policy (src/engine/policy.ts).
 */
export const RUN_TOOL_SUBCOMMANDS = {};
