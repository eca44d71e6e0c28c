import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FLOW_TOOL_DOCS, flowToolMarkdown } from '../../src/engine/formats/flow-tools.js';
import { REQUIRED_ARGUMENTS } from '../../src/engine/formats/flow-fields.js';
import { FLOW_TOOLS } from '../../src/engine/model/index.js';

test('the tools table documents every tool, required arguments first, and is what the validator requires', () => {
  assert.deepEqual(Object.keys(FLOW_TOOL_DOCS), [...FLOW_TOOLS]);
  for (const tool of FLOW_TOOLS) {
    const args = FLOW_TOOL_DOCS[tool].arguments;
    const firstOptional = args.findIndex((a) => !a.required);
    assert.ok(firstOptional === -1 || args.slice(firstOptional).every((a) => !a.required), `${tool}: required arguments first`);
    assert.deepEqual(REQUIRED_ARGUMENTS[tool], args.filter((a) => a.required).map((a) => a.name), tool);
    for (const a of args) assert.ok(flowToolMarkdown(tool).includes(`\`${a.name}\``), `${tool}: ${a.name} in its hover`);
  }
});

test('docs/flows.md lists the same required arguments as the tools table', () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'flows.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Tools and their required arguments'), doc.indexOf('## Diagnostics'));
  const listed = new Map<string, string[]>();
  for (const m of section.matchAll(/^\| (`[^|]+`) \| (`[^|]+`) \|/gm)) {
    const required = [...(m[2] ?? '').matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? '');
    for (const t of (m[1] ?? '').matchAll(/`([^`]+)`/g)) listed.set(t[1] ?? '', required);
  }
  assert.deepEqual([...listed.keys()].sort(), [...FLOW_TOOLS].sort());
  for (const tool of FLOW_TOOLS) assert.deepEqual(listed.get(tool), REQUIRED_ARGUMENTS[tool], tool);
});
