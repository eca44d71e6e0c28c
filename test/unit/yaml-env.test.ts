// formats/yaml-env.ts: the `yaml` package parses with process.env swapped for
// a plain object holding the variables it reads (its per-token reads of the
// real one were 20-40 % of its parse of token-heavy documents). Held here to
// the package's parse with the real environment (the same document, errors
// and warnings on the slow fixtures and a few broken documents), to the real
// environment being back afterwards (also when the parse throws), and to the
// package still seeing LOG_TOKENS when it is set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseDocument } from 'yaml';
import { withPlainEnv } from '../../src/engine/formats/yaml-env.js';
import { parseWithYaml } from '../../src/engine/formats/yaml-package';

const SLOW = path.join(__dirname, '..', 'fixtures', 'yaml-slow');
const OPTIONS = { uniqueKeys: false, prettyErrors: false };

function summary(doc: ReturnType<typeof parseDocument>): unknown {
  return {
    js: asJs(doc),
    errors: doc.errors.map((e) => [e.code, e.message, e.pos]),
    warnings: doc.warnings.map((w) => [w.code, w.message, w.pos]),
  };
}

/** The document as JavaScript, or why it cannot be (an alias before its anchor, in a broken document). */
function asJs(doc: ReturnType<typeof parseDocument>): string {
  try {
    return JSON.stringify(doc.toJS({ maxAliasCount: -1 }));
  } catch (e) {
    return `throws ${String(e)}`;
  }
}

test('the package reads the same document with the plain environment as with the real one', () => {
  const docs = [
    ...fs.readdirSync(SLOW).filter((f) => f.endsWith('.yaml')).map((f) => fs.readFileSync(path.join(SLOW, f), 'utf8')),
    'statechart:\n  id: x\n  states: {a: [1, 2}\n',
    'a: "unclosed\nb: [\n',
    '"' .repeat(5000),
    '- [' .repeat(200),
    'k: &a [1, *a]\n',
  ];
  let compared = 0;
  for (const text of docs) {
    let doc: ReturnType<typeof parseDocument> | undefined;
    let plainError: unknown;
    try {
      doc = withPlainEnv(() => parseDocument(text, OPTIONS));
    } catch (e) {
      plainError = e;
    }
    let reference: ReturnType<typeof parseDocument> | undefined;
    let realError: unknown;
    try {
      reference = parseDocument(text, OPTIONS);
    } catch (e) {
      realError = e;
    }
    assert.equal(String(plainError), String(realError));
    if (!doc || !reference) continue;
    // Where the package runs out of stack (it reports RESOURCE_EXHAUSTION) depends on how deep in the
    // stack it is called, which differs by a frame or two here: not what this holds.
    if ([...doc.errors, ...reference.errors].some((e) => e.code === 'RESOURCE_EXHAUSTION')) continue;
    assert.deepEqual(summary(doc), summary(reference), text.slice(0, 60));
    compared++;
  }
  assert.ok(compared >= docs.length - 3, `compared ${compared} of ${docs.length}`);
});

test('the real environment is back after a parse, also when it throws', () => {
  const real = process.env;
  parseWithYaml('a: [1, 2\n');
  assert.equal(process.env, real);
  assert.throws(() =>
    withPlainEnv(() => {
      assert.notEqual(process.env, real);
      throw new Error('thrown inside');
    }),
  /thrown inside/);
  assert.equal(process.env, real);
  assert.equal(typeof process.env.PATH, 'string');
});

test('LOG_TOKENS set in the real environment still reaches the package', () => {
  const logged: unknown[][] = [];
  const log = console.log;
  process.env.LOG_TOKENS = '1';
  console.log = (...args: unknown[]) => void logged.push(args);
  try {
    parseWithYaml('a: [1, 2]\nb: {c: d}\n'); // flow collections: not the fast path, the package's parse
  } finally {
    console.log = log;
    delete process.env.LOG_TOKENS;
  }
  assert.ok(logged.some((args) => args[0] === '|'), `logged: ${logged.length}`);
});
