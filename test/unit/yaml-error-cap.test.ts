/**
 * A YAML document with thousands of syntax errors (formats/yaml-error-cap.ts):
 * the first MAX_YAML_ERRORS are listed exactly as the `yaml` package reports
 * them, then one line counts the rest, and the package's composer made no
 * error object past the cap. In a run of quoted scalars written one right
 * after another, reading stops at the one past the cap, where the package
 * reports its next error. Below the cap nothing changes. Each row against
 * the package's own `parseDocument` of the same text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { parseDocument } from 'yaml';
import { MAX_YAML_ERRORS, parseDocumentCapped } from '../../src/engine/formats/yaml-error-cap';
import { parseDocumentShort, type ShortParse } from '../../src/engine/formats/yaml-empty-lines';
import { parseYamlTree } from '../../src/engine/formats/yaml-tree';
import { checkWorkflowFile } from '../../src/engine/check/check-file';

const OPTIONS = { uniqueKeys: false, prettyErrors: false };
const quotes = (n: number): string => '"'.repeat(n);

interface Row {
  readonly name: string;
  readonly text: string;
  /** Whether the composer (not the parser's error tokens) reports most of the errors, so the cap spares their making. */
  readonly composerErrors: boolean;
  /** Whether a run of empty lines sends the text through yaml-empty-lines.ts. */
  readonly emptyRun?: boolean;
  /** Whether reading stops in a run of quoted scalars (the rest of the text not read). */
  readonly stops?: boolean;
}

const rows: Row[] = [
  // The statechart fuzzer's slowest document was of this kind: a closed single-quoted scalar followed by a run of `"` (each `""` a scalar where none may stand).
  { name: 'a run of 3,000 quotes after a scalar', text: `statechart:\n  id: x\n  states: '""'${quotes(3000)}\n  initial: a\n`, composerErrors: true, stops: true },
  { name: 'the same after 3,000 empty lines', text: `statechart:\n  id: x\n${'\n'.repeat(3000)}  states: '""'${quotes(3000)}\n  initial: a\n`, composerErrors: true, emptyRun: true, stops: true },
  { name: 'the same in a flow sequence', text: `statechart:\n  id: x\n  states: ["a"${quotes(3000)}]\n  initial: a\n`, composerErrors: true, stops: true },
  { name: '500 unmatched flow ends (the parser\'s error tokens)', text: `statechart:\n  id: x\n  states: {\n${'  ]\n'.repeat(500)}`, composerErrors: false },
  // Each `""` after the scalar is one error: exactly the cap, then one past it.
  { name: 'exactly the cap', text: `statechart:\n  id: x\n  states: '""'${quotes(2 * MAX_YAML_ERRORS)}\n`, composerErrors: true },
  { name: 'one past the cap', text: `statechart:\n  id: x\n  states: '""'${quotes(2 * MAX_YAML_ERRORS + 2)}\n`, composerErrors: true, stops: true },
  // The package reads `? "a""b"` as the key `a` without an error: fewer errors than quoted scalars in a row, so the text is read whole.
  { name: 'quoted scalars in a row in explicit keys (no error from the package)', text: '? "a""b"\n: c\n'.repeat(2 * MAX_YAML_ERRORS), composerErrors: true },
  // The package reports one error for these 1,500 empty strings at the start of a line (a key without a value): reading stops after it.
  { name: 'quoted scalars in a row at the start of a line (one error from the package)', text: `a:\n  b: c\n${quotes(3000)}\n`, composerErrors: false, stops: true },
  { name: 'quotes after an unclosed single quote (one scalar): read whole', text: `a:\n  b: '"\n${quotes(3000)}\n`, composerErrors: false },
  { name: 'a few errors', text: 'statechart:\n  id: x\n  states: a\n b: c\n  initial: a\n', composerErrors: false },
];

for (const row of rows) {
  test(`yaml error cap: ${row.name}`, () => {
    const all = parseDocument(row.text, OPTIONS).errors;
    const listed = parseYamlTree(row.text).diagnostics.filter((d) => d.code === 'yaml-syntax' && d.severity === 'error');
    const shown = Math.min(all.length, MAX_YAML_ERRORS);
    // The first ones, message for message and at the same ranges as the package's.
    assert.deepEqual(
      listed.slice(0, shown).map((d) => [d.message, d.loc.start, d.loc.end]),
      // (A range past the end of the text, as the package gives for a missing closing quote at the end, is cut at the end.)
      all.slice(0, shown).map((e) => [`YAML syntax error: ${e.message.split('\n')[0]}`, e.pos[0], Math.min(e.pos[1], row.text.length)]),
    );
    const capped = row.emptyRun ? parseDocumentShort(row.text, OPTIONS) : parseDocumentCapped(row.text, OPTIONS);
    assert.ok(capped, 'the text went the way the row says');
    assert.equal(capped.stoppedAt !== undefined, row.stops === true, 'reading stopped or not, as the row says');
    if (row.stops) {
      // Stopped inside the run of quotes, after the package's errors before that point, without a count of the rest.
      const stop = listed.at(-1)!;
      assert.match(stop.message, /^YAML syntax error: reading stopped here: more than 100 quoted strings are written right after another one/);
      assert.equal(row.text.slice(stop.loc.start - 2, stop.loc.start + 2), quotes(4));
      const toOriginal = row.emptyRun ? (capped as ShortParse).toOriginal : (offset: number) => offset;
      assert.equal(toOriginal(capped.stoppedAt!), stop.loc.start);
      const before = all.filter((e) => e.pos[0] < stop.loc.start);
      assert.ok(before.length > 0, 'the package found an error before the stop');
      assert.equal(listed.length, Math.min(before.length, MAX_YAML_ERRORS) + 1);
      // With more than the cap, where the package reports its next error.
      if (all.length > MAX_YAML_ERRORS) assert.equal(stop.loc.start, all[MAX_YAML_ERRORS]!.pos[0]);
      assert.equal(parseYamlTree(row.text).root, undefined, 'a text read in part is not checked as a chart');
      return;
    }
    if (all.length > MAX_YAML_ERRORS) {
      assert.equal(listed.length, MAX_YAML_ERRORS + 1);
      const more = all.length - MAX_YAML_ERRORS;
      assert.equal(listed[MAX_YAML_ERRORS]!.message, `YAML syntax error: ${more} more syntax error${more === 1 ? '' : 's'} after this one (the first ${MAX_YAML_ERRORS} are listed).`);
      assert.deepEqual([listed[MAX_YAML_ERRORS]!.loc.start, listed[MAX_YAML_ERRORS]!.loc.end], [all[MAX_YAML_ERRORS - 1]!.pos[0], all[MAX_YAML_ERRORS - 1]!.pos[1]]);
    } else {
      assert.equal(listed.length, all.length, 'below the cap every error is listed and none is added');
    }
    // The cap in the composer itself: errors past it were counted, not made (this fails if the package stops reporting through `onError`).
    assert.equal(capped.doc.errors.length + capped.uncounted, all.length, 'made and counted errors add up to the package\'s');
    if (row.composerErrors && all.length > MAX_YAML_ERRORS) assert.equal(capped.doc.errors.length, MAX_YAML_ERRORS);
    if (!row.composerErrors || all.length <= MAX_YAML_ERRORS) assert.equal(capped.uncounted, 0);
  });
}

test('yaml error cap: a whole check of a document with thousands of quoted strings in a row lists the first errors and where reading stopped, every range inside the text', () => {
  const text = `statechart:\n  id: x\n  states: '""'${quotes(20_000)}\n  initial: a\n`;
  const result = checkWorkflowFile(text, path.join('/nowhere', 'broken.statechart.yaml'), { resolveSrc: false });
  const syntax = result.diagnostics.filter((d) => d.code === 'yaml-syntax');
  assert.equal(syntax.length, MAX_YAML_ERRORS + 1);
  assert.match(syntax.at(-1)!.message, /^YAML syntax error: reading stopped here/);
  assert.equal(result.diagnostics.length, syntax.length, 'nothing checked past the syntax');
  assert.ok(result.diagnostics.every((d) => d.loc.start >= 0 && d.loc.end <= text.length));
});
