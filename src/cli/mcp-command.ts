/** `stategate mcp [--dir DIR]`: serve stategate's agent tools over MCP on stdio. */
import * as path from 'node:path';
import { Runner } from '../engine/index.js';
import { parse, stringOption } from './args.js';
import type { ExitCode, Output } from './io.js';
import type { Command } from './commands.js';
import { serveMcp } from './mcp-server.js';
import { VERSION } from './version.js';

const USAGE = 'stategate mcp [--dir DIR]';

export const command: Command = {
  name: 'mcp',
  answersInJson: () => false,
  async run(args: readonly string[], out: Output): Promise<ExitCode> {
    const parsed = parse(args, { dir: { type: 'string' } }, USAGE);
    if (parsed.values.help) {
      out.stdout(`usage: ${USAGE}\n\nA stdio MCP server with statewright_get_state, statewright_transition, statewright_load_workflow,\nstatewright_pause, statewright_list_workflows, statewright_record_learning, stategate_invocation_done|fail\n(and statewright_force_state in debug workflows). Pausing, loading over an enforced run and forcing are\nrefused unless the workflow grants them (meta.agent_may).\nThe run is the one in DIR (default: $STATEGATE_DIR or ./.stategate).\n`);
      return 0;
    }
    const dir = stringOption(parsed, 'dir') ?? process.env.STATEGATE_DIR ?? '.stategate';
    await serveMcp(new Runner({ dir: path.resolve(dir) }), VERSION);
    return 0;
  },
};
