/**
 * The table of command-risks.ts as the Markdown docs/enforcement.md shows
 * (test/unit/command-risks.test.ts keeps the two equal).
 */
import { ENV_RISKS, TOOL_RISKS, type FlagRisk, type ToolRisks } from './command-risks';
import { FIND_RUNS, FIND_WRITES } from './commands';
import { TOOL_OUTPUTS, type OutputFlag, type ToolOutputs } from './output-flags';
import { FILE_OPTIONS, WRAPPER_OPTIONS, WRITER_OPTIONS } from './program-options';
import type { OptionSpec, ProgramOptions } from './option-spec';

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
  if (sx.oldStyle) notes.push('a first word without a dash is option letters, each taking the next word');
  if (sx.dashDash === 'scripts') notes.push('after `--`: the script’s arguments');
  if (sx.dashDash === 'end') notes.push('`--` ends options');
  if (sx.dashDash === 'operands') notes.push('`--` ends options, the program text may follow it');
  if (t.programFlag) notes.push(`\`-${t.programFlag} MODULE\` goes on with that module's table`);
  if (t.stdinWithout) notes.push('no script: reads its program from its input');
  return notes.join('; ');
}

function rows(t: ToolRisks, out: string[]): void {
  const head = `${t.heading ?? t.tool}${t.names.length ? ` (${t.names.map(code).join(', ')})` : ''}`;
  const read = howRead(t);
  const first = `**${head}**${read ? `<br>${read}` : ''}`;
  const lines: string[] = [];
  if (t.always) lines.push(`| ${first} | (any arguments) | ${t.always.why} | none: ${t.always.fix} |`);
  if (t.docs) lines.push(`| ${first} | | ${t.docs} | |`);
  else for (const f of t.flags) lines.push(`| ${lines.length ? '' : first} | ${spellings(f, t)} | ${f.why} | ${f.safeText ?? ''} |`);
  for (const p of t.positionals ?? []) lines.push(`| ${lines.length ? '' : first} | ${p.label} | ${p.why} | |`);
  out.push(...lines);
  if (t.first?.kind === 'subcommands') for (const sub of Object.values(t.first.tables)) rows(sub, out);
}

function optionSpellings(o: OptionSpec): string {
  return [...(o.long ?? []).map((l) => `--${l}`), ...[...(o.short ?? '')].map((c) => `-${c}`)].map(code).join(', ');
}

/** A getopt table (program-options.ts): its options that run or write, and how many others it knows. */
function optionRows(t: ProgramOptions, role: string, out: string[]): void {
  const marked = t.options.filter((o) => o.means !== undefined);
  const rest = t.options.length - marked.length;
  const head = `**${t.program}** (${role})`;
  const lines = marked.map((o, i) => `| ${i === 0 ? head : ''} | ${optionSpellings(o)} | ${o.why ?? ''} | ${o.means} |`);
  const others = t.options.filter((o) => o.means === undefined).map(optionSpellings).join(', ');
  lines.push(`| ${lines.length ? '' : head} | ${rest} other options | harmless: ${others} | |`);
  out.push(...lines);
}

function outputSpellings(f: OutputFlag, t: ToolOutputs): string {
  const dash = t.singleDashLong ? '-' : '--';
  const longs = [...(f.long ?? []), ...(f.longPrefix ?? []).map((p) => `${p}*`)].map((l) => (l.length <= 2 && !t.singleDashLong ? `-${l}` : `${dash}${l}`));
  const what = f.path === 'after-colon' ? ' (`TYPE:PATH`)' : f.path === 'output-pair' ? ' (`output=PATH`)' : f.tree ? ' (a folder)' : '';
  return `${[...longs, ...[...(f.short ?? '')].map((c) => `-${c}`)].map(code).join(', ')}${what}`;
}

/** The Markdown tables of risky arguments and assignments. */
export function commandRisksMarkdown(): string {
  const out = ['| tool | flag or word | why it is denied | values that pass |', '|---|---|---|---|'];
  for (const t of TOOL_RISKS) rows(t, out);
  out.push(
    '',
    'Wrappers and writers read their options as getopt_long does (a long option shortened to a unique prefix, `--opt=value` / `--opt value`, optional values only attached, short letters clustered), from the tables of program-options.ts. An option a table does not know, an ambiguous prefix, or a run-time word where an option may stand is denied under allowed_commands. `runs`: the command cannot be checked; `writes`: its value is a file the path rules check.',
    '',
    '| program | option | what it does | means |',
    '|---|---|---|---|',
  );
  for (const t of WRAPPER_OPTIONS) optionRows(t, 'wrapper: the command it runs must be allowed', out);
  out.push(
    `| **find** (wrapper: the command it runs must be allowed) | ${FIND_RUNS.map(code).join(', ')} | runs the command up to \`;\` or \`+\` (\`{}\`: a word only known when it runs) | runs: checked as a command of its own |`,
    `| | ${FIND_WRITES.map(code).join(', ')} | \`-delete\`: removes what it finds under its starting points; the others write the file they name | writes |`,
  );
  for (const t of WRITER_OPTIONS) optionRows(t, 'writer', out);
  for (const t of FILE_OPTIONS) optionRows(t, 'file command: the path rules check what it writes', out);
  out.push(
    '',
    'Output flags of test runners, compilers, linters and reporters (output-flags.ts) are writes: the protected files and allowed_paths apply to the files they name, and a state that allows no Write or Edit denies them.',
    '',
    '| tool | flags that write |',
    '|---|---|',
  );
  for (const t of TOOL_OUTPUTS) {
    const flags = t.flags.map((f) => outputSpellings(f, t)).join('; ');
    out.push(`| ${t.names.map(code).join(', ')} | ${flags} |`);
  }
  out.push('| `git rm`, `mv`, `restore`, `checkout -- PATHS` | those paths; `checkout BRANCH`, `switch`, `reset --hard`, `stash`, `clean`, `apply`, `am`, `cherry-pick`, `revert`, `merge`, `pull`, `rebase`, `bisect`, `read-tree -u`, `checkout-index`: the whole working tree |');
  out.push('', '| assignment | why it is denied |', '|---|---|');
  for (const e of ENV_RISKS) {
    const how = e.argsOf ? ` (read as ${e.argsOf.tool}'s options: only risky ones deny)` : e.listOf ? ` (each filter read as -${e.listOf.flag})` : '';
    out.push(`| ${e.label} | ${e.why}${how} |`);
  }
  return out.join('\n');
}
