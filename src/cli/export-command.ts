/** `stategate export FILE --format mermaid|dot|plantuml|svg [--out FILE]` */
import * as fs from 'node:fs';
import { checkWorkflowFile } from '../engine/check/check-file.js';
import { EXPORT_FORMATS, exportSvg, exportWorkflow, type ExportFormat, type Workflow } from '../engine/index.js';
import { parse, stringOption } from './args.js';
import { CliError, type ExitCode, type Output } from './io.js';
import type { Command } from './commands.js';

const USAGE = `stategate export FILE --format ${EXPORT_FORMATS.join('|')} [--out FILE]`;

export const command: Command = {
  name: 'export',
  answersInJson: () => false,
  async run(args: readonly string[], out: Output): Promise<ExitCode> {
    const parsed = parse(args, { format: { type: 'string', short: 'f' }, out: { type: 'string', short: 'o' } }, USAGE);
    if (parsed.values.help) {
      out.stdout(`usage: ${USAGE}\n\nPrints the workflow's states and transitions as a diagram: Mermaid, Graphviz DOT, PlantUML, or SVG laid out by elkjs.\n`);
      return 0;
    }
    const [file, ...extra] = parsed.positionals;
    if (!file || extra.length) throw new CliError('usage', `give exactly one workflow file\nusage: ${USAGE}`);
    const format = stringOption(parsed, 'format') ?? 'mermaid';
    if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
      throw new CliError('usage', `unknown format '${format}': use one of ${EXPORT_FORMATS.join(', ')}`);
    }
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new CliError('io', `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    const { workflow, diagnostics } = checkWorkflowFile(text, file);
    const firstError = diagnostics.find((d) => d.severity === 'error');
    if (!workflow) throw new CliError('invalid_workflow', `${file} is not a workflow: ${firstError?.message ?? 'nothing to draw'}`, 1);
    const rendered = await render(workflow, format as ExportFormat);
    const target = stringOption(parsed, 'out');
    if (target) fs.writeFileSync(target, rendered);
    else out.stdout(rendered);
    return 0;
  },
};

async function render(workflow: Workflow, format: ExportFormat): Promise<string> {
  if (format !== 'svg') return exportWorkflow(workflow, format);
  // elkjs is evaluated only for SVG: it is by far the largest part of this command's bundle.
  const ELK = (require('elkjs/lib/elk.bundled.js') as typeof import('elkjs/lib/elk.bundled.js')).default;
  return exportSvg(workflow, new ELK());
}
