/**
 * Reads the shell fixture files (test/fixtures/shell/*.txt): one command a
 * line, `json:` for a JSON string, `#` comments, and `@rules {...}` headers
 * that set the rules (and a "from" note) for the lines after them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellRules } from '../../../src/engine/shell/analyse';

export const SHELL_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'shell');

export interface CorpusRow {
  readonly command: string;
  readonly rules: ShellRules;
  readonly from: string;
  readonly label: string;
}

export function readShellCorpus(file: string, first: ShellRules): CorpusRow[] {
  let rules = first;
  let from = '';
  const rows: CorpusRow[] = [];
  for (const line of readFileSync(join(SHELL_FIXTURES, file), 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (line.startsWith('@rules ')) {
      const r = JSON.parse(line.slice('@rules '.length)) as ShellRules & { from?: string };
      rules = { allowedCommands: r.allowedCommands, blockedEnv: r.blockedEnv, writeAllowed: r.writeAllowed };
      from = r.from ?? '';
      continue;
    }
    const command = line.startsWith('json:') ? (JSON.parse(line.slice('json:'.length)) as string) : line;
    rows.push({ command, rules, from, label: `${JSON.stringify(command)}${from ? ` [${from}]` : ''}` });
  }
  return rows;
}
