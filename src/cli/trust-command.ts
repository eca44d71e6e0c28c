/**
 * `stategate trust [--dir DIR] FILE...`: a person says they read these chart
 * or flow files and trust what they run (docs/statechart-handlers.md). The
 * hash of each file's content is recorded in DIR/trust.json (default
 * ./.stategate, the run's folder, which the agent may not write); a later
 * change to the file makes it untrusted again. Refused to the agent through
 * the hook, like `run approve` (shell/own-cli.ts). Prints one JSON object:
 * `{"trusted": [{"file", "hash", "format", "runs", "tools"?, "sub_flows"?}], "record"}`, `runs`
 * listing a chart's handlers. Any file may be trusted: a flow, or the MCP
 * configuration an MCP handler's server is started from. A flow is trusted
 * with the custom tool registry it sees (`tools`, the registry's path) and the
 * sub-flows it names by a plain path (`sub_flows`), each recorded on its own:
 * the engine's flowTrust, the same record VS Code's first run checks and writes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { detectFormat, flowTrust, handlerLines, trustFlow, loadWorkflowText, SANDBOXED_ENV, trustContent, trustFilePath } from '../engine/index.js';
import { parse, stringOption } from './args.js';
import { CliError, printJson, type ExitCode, type Output } from './io.js';
import type { Command } from './commands.js';

const USAGE = 'stategate trust [--dir DIR] FILE...';
const HELP = `usage: ${USAGE}

Record that you trust the current content of each FILE (a statechart whose handlers may run,
or a FlowState flow): its hash goes to DIR/trust.json (default ./.stategate). Read the file
first: its handlers run commands on this machine. A changed file must be trusted again.
A flow is trusted together with the custom tool registry it uses (.stategate/flow-tools.yaml,
named as "tools" in the answer) and the sub-flows it names ("sub_flows"): read those too; a
changed registry or sub-flow must be trusted again.
This is a person's command: the agent is refused it.
`;

export const command: Command = {
  name: 'trust',
  answersInJson: (args) => !args.includes('--help') && !args.includes('-h'),
  async run(args: readonly string[], out: Output): Promise<ExitCode> {
    const parsed = parse(args, { dir: { type: 'string' } }, USAGE);
    if (parsed.values.help) {
      out.stdout(HELP);
      return 0;
    }
    if (parsed.positionals.length === 0) throw new CliError('usage', `name the file(s) to trust\nusage: ${USAGE}`);
    if (process.env[SANDBOXED_ENV] === '1') throw new CliError('sandboxed', "`stategate trust` is a person's command; inside stategate's sandbox the trust record is read-only", 1);
    const dir = path.resolve(stringOption(parsed, 'dir') ?? '.stategate');
    const trusted = parsed.positionals.map((file) => {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (err) {
        throw new CliError('unreadable', `${file} cannot be read: ${(err as Error).message}`, 1);
      }
      const loaded = loadWorkflowText(text, file);
      const runs = loaded.format === 'statechart' && loaded.workflow ? handlerLines(loaded.workflow) : [];
      const format = loaded.workflow ? loaded.format : 'file';
      // Any file may be trusted (an MCP configuration too); `format` names a workflow's only when it loads as one.
      if (detectFormat(text, file) !== 'flow') return { file: path.resolve(file), hash: trustContent(dir, file, text), format, runs };
      // A flow (as the flow loader tells one): with the custom tool registry it sees and the sub-flows it
      // names, each recorded on its own, as VS Code's first run records them (flow-trust.ts).
      const flow = flowTrust(dir, file, text);
      const hash = trustFlow(dir, flow);
      const tools = flow.tools.kind === 'none' ? {} : { tools: flow.tools.file };
      const subFlows = flow.parts.length > 1 ? { sub_flows: flow.parts.slice(1).map((p) => p.file) } : {};
      return { file: path.resolve(file), hash, format, runs, ...tools, ...subFlows };
    });
    printJson(out, { trusted, record: trustFilePath(dir) });
    return 0;
  },
};
