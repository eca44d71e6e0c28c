/**
 * `allowed_paths` / `denied_paths` in the format (our addition): read by the
 * loader, a bad glob is a diagnostic at its own range, documented by the
 * schema (hover text), shown in the state view and told to the agent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { briefing } from '../../src/engine/policy/briefing';
import { checkWorkflowFile } from '../../src/engine/check/check-file';
import { loadStatewright } from '../../src/engine/formats/statewright';
import { fieldDoc } from '../../src/engine/language/schema-docs';
import { cli } from './helpers/cli';
import { lit, withCode } from './support/ranges';
import { tempDir } from './helpers/temp-dir';

const text = (states: Record<string, unknown>): string => JSON.stringify({ id: 'scope', initial: 'work', states: { ...states, done: { type: 'final' } } }, null, 2);

test('the loader reads allowed_paths and denied_paths into the state rules', () => {
  const { workflow, diagnostics } = loadStatewright(text({ work: { allowed_paths: ['src/**', '~/.cache/**'], denied_paths: ['src/gen/**'], on: { DONE: 'done' } } }));
  assert.deepEqual(diagnostics, []);
  const rules = workflow!.states.get('work')!.rules;
  assert.deepEqual(rules.allowedPaths, ['src/**', '~/.cache/**']);
  assert.deepEqual(rules.deniedPaths, ['src/gen/**']);
});

test('a glob that cannot be read is an invalid-glob error at its own range', () => {
  const t = text({ work: { allowed_paths: ['src/**', 'src/[oops'], denied_paths: ['!keep/**', ''], on: { DONE: 'done' } } });
  const { diagnostics } = checkWorkflowFile(t, 'scope.workflow.json');
  assert.deepEqual(withCode(diagnostics, 'invalid-glob'), [
    { code: 'invalid-glob', ...lit(t, 'src/[oops') },
    { code: 'invalid-glob', ...lit(t, '!keep/**') },
    { code: 'invalid-glob', ...lit(t, '') },
  ]);
  const messages = diagnostics.filter((d) => d.code === 'invalid-glob').map((d) => d.message);
  assert.match(messages[0]!, /`src\/\[oops` in `allowed_paths` is not a usable glob: Missing closing: "\]"/);
  assert.match(messages[1]!, /negated globs/);
  assert.equal(diagnostics.find((d) => d.code === 'unknown-field'), undefined);
});

test('the schema documents both fields (the editor hover)', () => {
  const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'schemas', 'workflow-schema.json'), 'utf8'));
  assert.match(fieldDoc(schema, ['states', 'work', 'allowed_paths']) ?? '', /stategate's addition: globs a write must match/);
  assert.match(fieldDoc(schema, ['states', 'work', 'denied_paths']) ?? '', /no write may match/);
});

test('the state view and the briefing tell the agent where it may write', (t) => {
  const ws = tempDir('sg-scope-view-');
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  const wf = text({
    work: { allowed_tools: ['Write'], allowed_paths: ['src/**'], denied_paths: ['src/gen/**'], on: { NEXT: 'ruled', DONE: 'done' } },
    ruled: { allowed_tools: ['Write'], on: { NEXT: 'open', DONE: 'done' } },
    open: { on: { DONE: 'done' } },
  });
  fs.writeFileSync(path.join(ws, 'scope.workflow.json'), wf);
  assert.equal(cli(['run', 'start', 'scope.workflow.json'], { cwd: ws }).code, 0);
  const view = () => cli(['run', 'state'], { cwd: ws }).json;
  let v = view();
  assert.deepEqual([v.allowed_paths, v.denied_paths, v.writes_outside_workspace], [['src/**'], ['src/gen/**'], false]);
  assert.match(briefing(v), /Writes \(file tools and shell\): only to src\/\*\* \(allowed_paths\); never to src\/gen\/\*\* \(denied_paths\)\./);
  cli(['run', 'send', 'NEXT'], { cwd: ws });
  v = view();
  assert.deepEqual([v.allowed_paths, v.denied_paths, v.writes_outside_workspace], [null, [], false]);
  assert.match(briefing(v), /Writes \(file tools and shell\): only inside the workspace \(add allowed_paths/);
  cli(['run', 'send', 'NEXT'], { cwd: ws });
  v = view();
  assert.equal(v.writes_outside_workspace, true);
  assert.doesNotMatch(briefing(v), /Writes \(file tools/);
});
