/**
 * `stategate validate FILE... [--json]`: exit 0 when no file has an error,
 * 1 when one has, 2 on usage or I/O errors. Prints nothing for clean files.
 * Workflow files and registry manifests (`manifest.json`) are each checked as
 * what they are; `--json` names the format (`statewright`, `registry`, ...).
 */
import * as fs from 'node:fs';
import { checkFile } from '../engine/check/check-file.js';
import { LineIndex, type Diagnostic } from '../engine/index.js';
import { parse } from './args.js';
import { CliError, printJson, type ExitCode, type Output } from './io.js';
import type { Command } from './commands.js';

const USAGE = 'stategate validate FILE... [--json]';

interface FileReport {
  readonly file: string;
  readonly format: string;
  readonly diagnostics: ReturnType<typeof toJson>[];
}

function toJson(d: Diagnostic, lines: LineIndex) {
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    pointer: d.loc.pointer,
    range: { start: lines.position(d.loc.start), end: lines.position(d.loc.end) },
  };
}

export const command: Command = {
  name: 'validate',
  answersInJson: (args) => args.includes('--json'),
  async run(args: readonly string[], out: Output): Promise<ExitCode> {
    const parsed = parse(args, { json: { type: 'boolean' } }, USAGE);
    if (parsed.values.help) {
      out.stdout(`usage: ${USAGE}\n\nChecks each file against the workflow schema and the semantic rules\n(targets, guards, reachability, interrupts, forks, invokes); a registry\nmanifest (manifest.json) against its own rules (each entry's file exists and\nloads, unique names).\nExit: 0 no errors, 1 errors, 2 usage or I/O error. Prints nothing for clean files.\n`);
      return 0;
    }
    if (parsed.positionals.length === 0) throw new CliError('usage', `no file given\nusage: ${USAGE}`);
    const reports: FileReport[] = [];
    let errors = false;
    for (const file of parsed.positionals) {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (err) {
        throw new CliError('io', `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      const result = checkFile(text, file);
      const lines = new LineIndex(text);
      const diagnostics = result.diagnostics.map((d) => toJson(d, lines));
      if (diagnostics.some((d) => d.severity === 'error')) errors = true;
      reports.push({ file, format: result.format, diagnostics });
    }
    if (parsed.values.json) {
      printJson(out, { files: reports });
    } else {
      for (const r of reports) {
        for (const d of r.diagnostics) {
          out.stdout(`${r.file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message}\n`);
        }
      }
    }
    return errors ? 1 : 0;
  },
};
