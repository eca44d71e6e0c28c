/** Renders benchmark rows as a Markdown table (what the README shows) with notes below it. */
import type { Row } from './row.js';

function num(v: number, unit: string): string {
  const digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${unit}`;
}

function verdict(r: Row): string {
  if (r.pending) return 'pending';
  if (r.pass === undefined) return '';
  return r.pass ? 'met' : '**missed**';
}

export function renderTable(rows: readonly Row[]): string {
  const head = ['measure', 'stat', 'stategate', 'baseline', '× baseline', 'target', 'result'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  const notes: string[] = [];
  for (const r of rows) {
    if (r.pending) {
      lines.push(`| ${r.measure} | | pending: ${r.pending} | | | ${r.target} | pending |`);
      continue;
    }
    const value = r.value === undefined ? '' : num(r.value, r.unit);
    const baseline = r.baseline === undefined ? '—' : `${num(r.baseline, r.unit)} (${r.baselineName ?? ''})`;
    const ratio = r.ratio === undefined ? '—' : `${r.ratio.toFixed(2)}×`;
    lines.push(`| ${r.measure} | ${r.stat} | ${value} | ${baseline} | ${ratio} | ${r.target} | ${verdict(r)} |`);
    if (r.note) notes.push(`- ${r.measure}: ${r.note}`);
  }
  return `${lines.join('\n')}\n${notes.length ? `\n${notes.join('\n')}\n` : ''}`;
}
