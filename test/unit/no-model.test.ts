/**
 * @stategate without a language model (src/vscode/agents/no-model.ts): the
 * chat says what is needed and how to get it, rather than VS Code's error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MODEL_EXTENSION, noModelMarkdown, noModelReason } from '../../src/vscode/agents/no-model';

/** vscode.LanguageModelError as VS Code makes it: `code` is the factory's name. */
function lmError(code: string): Error {
  return Object.assign(new Error(`model: ${code}`), { name: `LanguageModelError`, code });
}

test('no model at all, or VS Code saying none is found, is told as "none"; other failures are not this', () => {
  const model = { id: 'gpt-4o' };
  assert.equal(noModelReason(undefined), 'none');
  assert.equal(noModelReason(model), undefined);
  assert.equal(noModelReason(model, lmError('NotFound')), 'none');
  assert.equal(noModelReason(model, lmError('NoPermissions')), 'not-allowed');
  assert.equal(noModelReason(model, lmError('Blocked')), 'blocked');
  assert.equal(noModelReason(model, new Error('ENOENT: the tool failed')), undefined);
  assert.equal(noModelReason(model, 'a string'), undefined);
});

test('the answer says what is needed and how to get it, and that the rest works without a model', () => {
  const none = noModelMarkdown('none');
  assert.match(none, /needs a language model/);
  assert.match(none, /Install \*\*GitHub Copilot Chat\*\*/);
  assert.match(none, /Sign in from the Accounts menu/);
  assert.match(none, /model picker/);
  assert.match(none, /Enable Agent Enforcement/);
  assert.equal(MODEL_EXTENSION, 'GitHub.copilot-chat');
  assert.match(noModelMarkdown('not-allowed'), /Allow it when VS Code asks/);
  assert.match(noModelMarkdown('blocked'), /pick another model/);
});
