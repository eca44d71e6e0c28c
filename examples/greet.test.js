// The example project's test (`npm test` here runs `node --test`, only this folder's tests).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { greet } = require('./greet.js');

test('greet names the person', () => {
  assert.equal(greet('Ada'), 'Hello, Ada!');
});
