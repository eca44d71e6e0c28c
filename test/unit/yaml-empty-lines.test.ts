/**
 * Long runs of empty lines read once (formats/yaml-empty-lines.ts) against
 * the `yaml` package's own parse of the original text (parseWithYaml's
 * reference mode): the same tree (kinds, offsets, lengths, values, parents)
 * and the same diagnostics (messages and ranges), on the slowest documents
 * the statechart fuzzer found (test/fixtures/yaml-slow, each with a `.how`
 * saying how it was made) and on random documents with long runs in every
 * place: block scalars, multi-line quoted and plain scalars, flow
 * collections, between entries, broken as text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { propertyRuns } from './support/property-runs';
import { stringify } from 'yaml';
import { parseDocumentShort } from '../../src/engine/formats/yaml-empty-lines';
import { parseWithYaml } from '../../src/engine/formats/yaml-package';
import type { JsonNode } from '../../src/engine/formats/jsonc';
import { plain } from './support/plain-tree';
import { applyTextMutation, textMutation } from './support/fuzz-harness';

const SLOW = path.join(__dirname, '..', 'fixtures', 'yaml-slow');
const OPTIONS = { uniqueKeys: false, prettyErrors: false };

/** The same tree and diagnostics as the package's parse of the original. */
function sameAsPackage(text: string): void {
  const short = parseWithYaml(text);
  const reference = parseWithYaml(text, false);
  const what = JSON.stringify(text.replace(/\n{20,}/g, (m) => `<${m.length} line breaks>`).slice(0, 400));
  assert.deepEqual(short.diagnostics, reference.diagnostics, what);
  assert.deepEqual(short.root && plain(short.root, undefined), reference.root && plain(reference.root, undefined), what);
}

/** The fixtures with a run long enough to be read once (the others are the package's as before). */
function slowFixtures(): string[] {
  return fs
    .readdirSync(SLOW)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => fs.readFileSync(path.join(SLOW, f), 'utf8'))
    .filter((text) => parseDocumentShort(text, OPTIONS) !== undefined);
}

test('the fuzzer\'s slowest documents: the same tree and diagnostics as the package\'s parse of the original', () => {
  const texts = slowFixtures();
  assert.ok(texts.length >= 8, `only ${texts.length} fixtures with long runs`);
  for (const text of texts) sameAsPackage(text);
});

test('100,000 empty lines between entries of a broken document: the parser is handed a few thousand lexemes, and the error is placed in the original', () => {
  const text = `a: 1\n${'\n'.repeat(100_000)}b: 1\n- x\n`;
  const short = parseDocumentShort(text, OPTIONS);
  assert.ok(short, 'read with the runs cut');
  assert.ok(short.lexemes < 5000, `${short.lexemes} lexemes`);
  const parsed = parseWithYaml(text);
  assert.ok(parsed.diagnostics.length > 0);
  for (const d of parsed.diagnostics) {
    assert.equal(d.code, 'yaml-syntax');
    assert.equal(text.slice(d.loc.start, d.loc.start + 3), '- x', d.message);
  }
  sameAsPackage(text);
});

test('block scalars holding runs (read short, their values given their line breaks back), in broken documents: as the package reads them', () => {
  const run = '\n'.repeat(5000);
  const broken = 'z: [\n'; // an unclosed flow sequence: the fast path declines, the package reports it
  const cases = [
    `a: |+\n  x${run}  y${run}b: 1\n${broken}`,
    `a: |\n  x${run}  y${run}b: 1\n${broken}`,
    `a: |-\n  x${run}${broken}`,
    `a: |+\n  ${run}${broken}`, // as `stringify` writes a string of line breaks
    `a: |2\n  x${run}   y\n${run}${broken}`,
    `a: >\n  x${run}  y\n${broken}`,
    `- |+ # c\n  x${run}- |\n  y${run}  \n${run}- >-\n  z${run}`,
    // After a line holding a tab the lexer leaves the next line's indentation at the end of the body. With keep
    // chomping it is read short (every line break is one in the value, whether those spaces are a line of it or
    // not); folded, it is read whole.
    `a:\n  k: |+\n      \n${run}\t\n${run}    b: 1\n${broken}`,
    `a:\n  k: >+\n      \n${run}\t\n${run}    b: 1\n${broken}`,
  ];
  for (const text of cases) {
    sameAsPackage(text);
    assert.ok(parseDocumentShort(text, OPTIONS), JSON.stringify(text.slice(0, 20)));
  }
  const value = parseWithYaml(cases[0]!).root?.children?.[0]?.children?.[1]?.value;
  assert.equal(value, `x${run}y${run}`);
});

test('a keep-chomped literal body whose last run is followed by a line of spaces: read short, the value the package reads from the original', () => {
  const run = '\n'.repeat(5000);
  const broken = 'z: [\n';
  for (const text of [
    `a:\n  k: |+\n      \n${run}\t\n${run}    b: 1\n${broken}`, // the fuzzer's shape: a tab line, the next entry's indentation at the end
    `a:\n  k: |+\n    x\n${run}      \n${broken}`, // a more-indented line of spaces after the run: a line of the value
    `a:\n  k: |+\n    x\n${run}  \n${broken}`, // a less-indented one: not a line of it
    `- |+\n  x${run}   \n${run} \n${broken}`,
  ]) {
    sameAsPackage(text);
    const short = parseDocumentShort(text, OPTIONS);
    assert.ok(short, 'read with the runs cut');
    // The value as the parser read it is short; given its line breaks back it is the package's value of the original.
    let read: { start: number; value: string } | undefined;
    visitScalars(short.doc.contents, (start, value) => (read ??= value.length > 1000 ? { start, value } : undefined));
    assert.ok(read, 'the body was read');
    assert.ok(read.value.length < 5000, `the parser was handed the body short (${read.value.length} characters)`);
    const whole = parseWithYaml(text, false).root;
    const expected = findLongString(whole);
    assert.equal(short.stringValue(read.start, read.value), expected);
  }
});

/** Calls `f` with each scalar's range start and string value, depth first. */
function visitScalars(node: unknown, f: (start: number, value: string) => void): void {
  if (!node || typeof node !== 'object') return;
  const n = node as { value?: unknown; range?: number[]; items?: unknown[]; key?: unknown };
  if (typeof n.value === 'string' && n.range) f(n.range[0]!, n.value);
  else if (n.value && typeof n.value === 'object') visitScalars(n.value, f);
  for (const item of n.items ?? []) visitScalars(item, f);
}

/** The first string value over 1,000 characters in a parse tree. */
function findLongString(node: JsonNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'string' && typeof node.value === 'string' && node.value.length > 1000) return node.value;
  for (const c of node.children ?? []) {
    const found = findLongString(c);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The string value of the first entry's value. */
function firstValue(text: string): unknown {
  return parseWithYaml(text).root?.children?.[0]?.children?.[1]?.value;
}

test('folded block scalars holding runs: read short, with the value the package reads from the original', () => {
  const run = '\n'.repeat(40_000);
  const broken = 'z: [\n';
  // The fuzzer's slowest shape: a header alone on its line, then a run (its first line break ends the header's line).
  const cases = [
    `a: >-${run}  actions: x\n${broken}`,
    `a: >${run}  x\n  y${run}  z\n${broken}`,
    `a: >+\n  x${run}${broken}`,
    `a: >\n  x${run}${broken}`,
    `a: >-\n  x\n   more${run}  y\n${broken}`,
    `a: >2\n   x${run}  y\n${broken}`,
  ];
  for (const text of cases) {
    const short = parseDocumentShort(text, OPTIONS);
    assert.ok(short, JSON.stringify(text.slice(0, 12)));
    assert.ok(short.lexemes < 3000, `${short.lexemes} lexemes for 40,000 lines`);
    sameAsPackage(text);
  }
  assert.equal(firstValue(cases[0]!), `${'\n'.repeat(39_999)}actions: x`);
  assert.equal(firstValue(cases[1]!), `${'\n'.repeat(39_999)}x y${'\n'.repeat(39_999)}z\n`); // `x` and `y` fold into one line
  assert.equal(firstValue(cases[2]!), `x${run}`);
});

test('folded block scalars whose runs cannot be told apart in the value (read whole): as the package reads them', () => {
  const run = '\n'.repeat(5000);
  const blank = '\n  \n'; // a line of spaces between two runs: one stretch of empty lines, one stretch of the value
  const stray = '\n'.repeat(1500); // not cut, but as long as a cut run in the value
  for (const text of [
    `a: >\n  x${run}${blank}${run}  y\nz: [\n`,
    `a: >\n  x${stray}  y${run}  z\nq: [\n`,
    `a: >\n  x${run}${blank}${stray}  y\nz: [\n`,
    // As many long stretches in the value as runs, but not theirs: the stray lines make one, the two runs another.
    `a: >\n  x${stray}  y${run}${blank}${run}  z\nq: [\n`,
  ]) {
    sameAsPackage(text);
  }
});

const foldedLine = fc.constantFrom('x', 'y z', ' more', '   ', '  ', '', '#c', '- a', 'k: v', '\t', ' \t');

test('random folded and literal block scalars with runs, blank and more-indented lines, every chomping: the same tree and diagnostics as the package', () => {
  let cut = 0;
  fc.assert(
    fc.property(
      fc.constantFrom('>', '>-', '>+', '|', '|-', '|+', '>2', '|2'),
      fc.array(fc.oneof(foldedLine, run.map((r) => r.slice(1)), fc.integer({ min: 400, max: 1600 }).map((n) => '\n'.repeat(n))), { minLength: 1, maxLength: 6 }),
      fc.boolean(),
      fc.constantFrom('', 'z: [\n', 'b: 1\n'),
      fc.boolean(),
      (header, lines, headerAlone, after, nested) => {
        // Nested, the next entry's indentation follows the body (the lexer may leave it at the body's end); a tab line stays at column 0.
        const indent = nested ? '    ' : '  ';
        const body = lines.map((l) => (l.startsWith('\n') || l === '' || l === '\t' ? l : `${indent}${l}`)).join('\n');
        const text = `${nested ? 'p:\n  ' : ''}a: ${header}${headerAlone ? '' : ' # c'}\n${body}\n${nested && after ? '  ' : ''}${after}`;
        if (parseDocumentShort(text, OPTIONS)) cut++;
        sameAsPackage(text);
      },
    ),
    propertyRuns(300),
  );
  assert.ok(cut >= 75, `only ${cut} documents had their runs cut`);
});

test('a token after the end of the stream quoted in its error, holding a cut run: quoted from the original text', () => {
  const run = '\n'.repeat(5000);
  // A stray `]` ends the document's stream: every token after it is an error that quotes the token's whole text.
  for (const text of [`a: 1\n]\nb: |+\n  x${run}  y\n`, `a: 1\n]\nb: |+\n  ${run}`, `a: 1\n]\n- >\n  x${run}  y\n`]) {
    const short = parseDocumentShort(text, OPTIONS);
    assert.ok(short, JSON.stringify(text.slice(0, 12)));
    assert.ok(short.doc.errors.some((e) => e.message.includes('\\n'.repeat(5000))), 'the quote holds the whole run');
    sameAsPackage(text);
  }
});

test('no long run, or the lexer\'s marker characters in the text: left to the package', () => {
  assert.equal(parseDocumentShort(`a: 1\n${'\n'.repeat(100)}b: 2\n`, OPTIONS), undefined);
  assert.equal(parseDocumentShort(`a: "\x1f"\n${'\n'.repeat(5000)}b: 2\n`, OPTIONS), undefined);
});

const FRAGMENTS = [':', ': ', '- ', '  ', '\n', '\n  ', '#', ' #', '"', "'", '[', ']', '{', '}', ',', '|', '|+', '|-', '>', '? ', '&a ', '*a', '!!str ', '---\n', '...\n', '\t', 'x: y', '~'];

const run = fc.integer({ min: 2200, max: 6000 }).map((n) => '\n'.repeat(n));

/** Chart-like values, some of them strings that are long runs of line breaks (written as `|+` block scalars). */
const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'empty-lines-value' },
    fc.stringMatching(/^[a-z_][a-z_0-9.]{0,8}$/),
    fc.stringMatching(/^[a-z .>=<()'"#:\\-]{0,12}$/),
    run,
    fc.tuple(fc.stringMatching(/^[a-z ]{0,6}$/), run, fc.stringMatching(/^[a-z ]{0,6}$/)).map(([a, r, b]) => a + r + b),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3, depthIdentifier: 'empty-lines-value' }),
    fc.dictionary(fc.stringMatching(/^[a-z_]{1,6}$/), tie('value'), { maxKeys: 3, depthIdentifier: 'empty-lines-value' }),
  ),
})).value;

test('random documents with long runs of empty lines anywhere, often broken: the same tree and diagnostics as the package\'s parse', () => {
  let cut = 0;
  fc.assert(
    fc.property(
      fc.dictionary(fc.stringMatching(/^[a-z_]{1,6}$/), value, { minKeys: 1, maxKeys: 4 }),
      fc.constantFrom('block' as const, 'flow' as const, 'any' as const),
      fc.array(fc.oneof(textMutation(FRAGMENTS), fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: run })), { maxLength: 4 }),
      (doc, style, mutations) => {
        let text = stringify(doc, { lineWidth: 0, ...(style === 'any' ? {} : { collectionStyle: style }) });
        for (const m of mutations) text = applyTextMutation(text, m);
        if (parseDocumentShort(text, OPTIONS)) cut++;
        sameAsPackage(text);
      },
    ),
    propertyRuns(300),
  );
  assert.ok(cut >= 75, `only ${cut} documents had their runs cut`);
});
