/**
 * The table of command-risks.ts as the Markdown docs/enforcement.md shows
 * (test/unit/command-risks.test.ts keeps the two equal).
 */
import { ENV_RISKS, TOOL_RISKS, type FlagRisk, type ToolRisks } from './command-risks';

const code = (s: string): string => `\`${s}\``;

function spellings(f: FlagRisk, t: ToolRisks): string {
  const dash = t.syntax.longDash ?? '--';
  const out = [...(f.long ?? []).map((l) => (l.length === 1 || (t.syntax.shorts === 'long' && l.length === 2) ? `-${l}` : `${dash}${l}`)), ...[...(f.short ?? '')].map((c) => `-${c}`)];
  return out.map(code).join(', ');
}

function howRead(t: ToolRisks): string {
  const sx = t.syntax;
  const notes: string[] = [];
  if (sx.fold === 'npm') notes.push('names in any case, `_` for `-`');
  if (sx.fold === 'underscore') notes.push('`_` for `-`');
  if (sx.fold === 'loose') notes.push('`setupFiles` = `setup-files`');
  if (sx.abbreviations) notes.push('long options shortened to a prefix');
  if (sx.stopAtPositional) notes.push('options end at the script');
  if (sx.dashDash === 'scripts') notes.push('after `--`: the script’s arguments');
  if (sx.dashDash === 'end') notes.push('`--` ends options');
  if (t.programFlag) notes.push(`\`-${t.programFlag} MODULE\` goes on with that module's table`);
  if (t.stdinWithout) notes.push('no script: reads its program from its input');
  return notes.join('; ');
}

function rows(t: ToolRisks, out: string[]): void {
  const head = `${t.heading ?? t.tool}${t.names.length ? ` (${t.names.map(code).join(', ')})` : ''}`;
  const read = howRead(t);
  const first = `**${head}**${read ? `<br>${read}` : ''}`;
  const lines: string[] = [];
  if (t.docs) lines.push(`| ${first} | | ${t.docs} | |`);
  else for (const f of t.flags) lines.push(`| ${lines.length ? '' : first} | ${spellings(f, t)} | ${f.why} | ${f.safeText ?? ''} |`);
  for (const p of t.positionals ?? []) lines.push(`| ${lines.length ? '' : first} | ${p.label} | ${p.why} | |`);
  out.push(...lines);
  if (t.first?.kind === 'subcommands') for (const sub of Object.values(t.first.tables)) rows(sub, out);
}

/** The Markdown tables of risky arguments and assignments. */
export function commandRisksMarkdown(): string {
  const out = ['| tool | flag or word | why it is denied | values that pass |', '|---|---|---|---|'];
  for (const t of TOOL_RISKS) rows(t, out);
  out.push('', '| assignment | why it is denied |', '|---|---|');
  for (const e of ENV_RISKS) {
    const how = e.argsOf ? ` (read as ${e.argsOf.tool}'s options: only risky ones deny)` : e.listOf ? ` (each filter read as -${e.listOf.flag})` : '';
    out.push(`| ${e.label} | ${e.why}${how} |`);
  }
  return out.join('\n');
}
