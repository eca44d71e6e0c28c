import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalTool, isOwnTool, toolMatches, extractCall, callEditLines, toolEntry, editLineCount, OWN_TOOLS, OWN_MCP_SERVER } from '../../src/engine/agent/tools';
import { MCP_SERVER_NAME } from '../../src/engine/clients/client-configs';

const canonicalRows: [string, string][] = [
  ['Read', 'Read'],
  ['Edit', 'Edit'],
  ['Bash', 'Bash'],
  ['Agent', 'Task'],
  ['run_in_terminal', 'Bash'],
  ['create_file', 'Write'],
  ['replace_string_in_file', 'Edit'],
  ['multi_replace_string_in_file', 'Edit'],
  ['apply_patch', 'Edit'],
  ['insert_edit_into_file', 'Edit'],
  ['read_file', 'Read'],
  ['list_dir', 'LS'],
  ['file_search', 'Glob'],
  ['grep_search', 'Grep'],
  ['semantic_search', 'Grep'],
  ['fetch_webpage', 'WebFetch'],
  ['edit_notebook_file', 'NotebookEdit'],
  ['runSubagent', 'Task'],
  ['manage_todo_list', 'TodoWrite'],
  ['copilot_readFile', 'Read'],
  ['copilot_replaceString', 'Edit'],
  ['copilot_multiReplaceString', 'Edit'],
  ['copilot_createFile', 'Write'],
  ['copilot_applyPatch', 'Edit'],
  ['copilot_findTextInFiles', 'Grep'],
  ['copilot_findFiles', 'Glob'],
  ['copilot_fetchWebPage', 'WebFetch'],
  ['copilot_listDirectory', 'LS'],
  ['run_notebook_cell', 'run_notebook_cell'],
  ['some_unknown_tool', 'some_unknown_tool'],
  ['mcp__github__create_issue', 'mcp__github__create_issue'],
  ['toString', 'toString'],
  ['__proto__', '__proto__'],
];
for (const [id, want] of canonicalRows) test(`canonicalTool(${id}) = ${want}`, () => assert.equal(canonicalTool(id), want));

test('user aliases extend the table', () => assert.equal(canonicalTool('myEditor', { myEditor: 'Edit' }), 'Edit'));
test('user aliases cannot re-map built-ins', () => assert.equal(canonicalTool('read_file', { read_file: 'Bash' }), 'Read'));
test('a user alias inherits the kind of its target', () => assert.equal(toolEntry('sh', { sh: 'Bash' })?.kind, 'shell'));
test('no table entry claims to be captured', () => {
  for (const [id] of canonicalRows) assert.notEqual(toolEntry(id)?.source, 'captured' as never);
});

const ownRows: [string, boolean][] = [
  ['statewright_get_state', true],
  ['statewright_transition', true],
  ['statewright_load_workflow', true],
  ['statewright_pause', true],
  ['statewright_list_workflows', true],
  ['statewright_force_state', true],
  ['statewright_record_learning', true],
  ['mcp__stategate__statewright_record_learning', true],
  // Only stategate's own server's tools are its own (issue 29): another server's look-alike is an ordinary tool.
  ['mcp__statewright__statewright_transition', false],
  ['mcp__my_server__statewright_get_state', false],
  ['mcp__evil__statewright_pause', false],
  ['mcp__evil__statewright_transition', false],
  ['statewright/statewright_transition', false],
  ['evil/statewright_pause', false],
  ['mcp_evil_statewright_pause', false],
  ['mcp_stategate2_statewright_pause', false],
  ['stategate/statewright_pause', true],
  ['mcp_stategate_statewright_pause', true],
  ['mcp__stategate__statewright_transition', true],
  ['statewright_delete_everything', false],
  ['mcp__x__statewright_rm', false],
  ['Bash', false],
  ['transition', false],
];
for (const [id, want] of ownRows) test(`isOwnTool(${id}) = ${want}`, () => assert.equal(isOwnTool(id), want));
test('OWN_MCP_SERVER is the name the client setup gives stategate\'s MCP server', () => assert.equal(OWN_MCP_SERVER, MCP_SERVER_NAME));

const matchRows: [string, string, boolean][] = [
  ['Edit', 'Edit', true],
  ['Edit', 'replace_string_in_file', true],
  ['Edit', 'copilot_applyPatch', true],
  ['Edit', 'create_file', false],
  ['Write', 'create_file', true],
  ['Bash', 'run_in_terminal', true],
  ['Task', 'Agent', true],
  ['Agent', 'runSubagent', true],
  ['replace_string_in_file', 'replace_string_in_file', true],
  ['replace_string_in_file', 'Edit', false],
  ['replace_string_in_file', 'apply_patch', false],
  ['my_tool', 'my_tool', true],
  ['my_tool', 'my_tool2', false],
  ['mcp__github__create_issue', 'github/create_issue', true],
  ['github/create_issue', 'mcp__github__create_issue', true],
  ['mcp__github', 'mcp__github__create_issue', true],
  ['mcp__github__*', 'github/list', true],
  ['github/*', 'mcp__github__list', true],
  ['mcp__github', 'mcp__gitlab__create_issue', false],
  ['mcp__github__create_issue', 'mcp__github__delete_repo', false],
  ['Read', 'mcp__fs__read_file', false],
];
for (const [rule, id, want] of matchRows) test(`toolMatches(${rule}, ${id}) = ${want}`, () => assert.equal(toolMatches(rule, id), want));

const extractRows: { name: string; id: string; input: unknown; kind: string; paths: string[]; command?: string; cwd?: string; lines: number }[] = [
  { name: 'Claude Edit', id: 'Edit', input: { file_path: '/w/a.ts', old_string: 'a\nb', new_string: 'a\nc' }, kind: 'edit', paths: ['/w/a.ts'], lines: 1 },
  { name: 'VS Code replace', id: 'replace_string_in_file', input: { filePath: 'a.ts', oldString: 'x', newString: 'y\nz' }, kind: 'edit', paths: ['a.ts'], lines: 2 },
  { name: 'Copilot replace', id: 'copilot_replaceString', input: { filePath: 'a.ts', oldString: 'x\ny\nz', newString: '' }, kind: 'edit', paths: ['a.ts'], lines: 3 },
  { name: 'Claude MultiEdit', id: 'MultiEdit', input: { file_path: 'm.ts', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd\ne' }] }, kind: 'edit', paths: ['m.ts'], lines: 3 },
  { name: 'VS Code multi-replace', id: 'multi_replace_string_in_file', input: { replacements: [{ filePath: 'a.ts', oldString: 'a', newString: 'b' }, { filePath: 'b.ts', oldString: 'c', newString: 'd' }] }, kind: 'edit', paths: ['a.ts', 'b.ts'], lines: 2 },
  { name: 'apply_patch V4A', id: 'apply_patch', input: { input: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n ctx\n-old\n+new\n+more\n*** Add File: b.ts\n+one\n*** End Patch' }, kind: 'edit', paths: ['src/a.ts', 'b.ts'], lines: 3 },
  { name: 'unified diff', id: 'copilot_applyPatch', input: { input: '--- a/x.ts\n+++ b/x.ts\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n-d' }, kind: 'edit', paths: ['x.ts'], lines: 2 },
  { name: 'unified diff deleting a file names it', id: 'apply_patch', input: { input: '--- a/.claude/settings.json\n+++ /dev/null\n@@ -1 +0,0 @@\n-{}' }, kind: 'edit', paths: ['.claude/settings.json'], lines: 1 },
  { name: 'diff line starting with -- is content', id: 'apply_patch', input: { input: '--- a/q.sql\n+++ b/q.sql\n@@\n--- old comment\n+-- new comment' }, kind: 'edit', paths: ['q.sql'], lines: 1 },
  { name: 'Write', id: 'Write', input: { file_path: 'w.txt', content: 'a\nb\nc\n' }, kind: 'write', paths: ['w.txt'], lines: 3 },
  { name: 'create_file', id: 'create_file', input: { filePath: 'n.txt', content: 'x' }, kind: 'write', paths: ['n.txt'], lines: 1 },
  { name: 'insert edit ignores existing-code markers', id: 'insert_edit_into_file', input: { filePath: 'a.ts', code: '// ...existing code...\nfoo();\n// ...existing code...' }, kind: 'edit', paths: ['a.ts'], lines: 1 },
  { name: 'NotebookEdit', id: 'NotebookEdit', input: { notebook_path: 'n.ipynb', new_source: 'a\nb' }, kind: 'edit', paths: ['n.ipynb'], lines: 2 },
  { name: 'Bash', id: 'Bash', input: { command: 'npm test', description: 'x' }, kind: 'shell', paths: [], command: 'npm test', lines: 0 },
  { name: 'run_in_terminal', id: 'run_in_terminal', input: { command: 'pytest -x', explanation: 'e', isBackground: false }, kind: 'shell', paths: [], command: 'pytest -x', lines: 0 },
  { name: 'cwd', id: 'Bash', input: { command: 'ls', cwd: '/w' }, kind: 'shell', paths: [], command: 'ls', cwd: '/w', lines: 0 },
  { name: 'read_file', id: 'read_file', input: { filePath: 'r.ts', startLine: 1, endLine: 9 }, kind: 'read', paths: ['r.ts'], lines: 0 },
  { name: 'list_dir', id: 'list_dir', input: { path: 'src' }, kind: 'search', paths: ['src'], lines: 0 },
  { name: 'get_errors', id: 'get_errors', input: { filePaths: ['a', 'b'] }, kind: 'read', paths: ['a', 'b'], lines: 0 },
  { name: 'garbage input: null', id: 'Edit', input: null, kind: 'edit', paths: [], lines: 0 },
  { name: 'garbage input: string', id: 'Bash', input: 'rm -rf /', kind: 'shell', paths: [], lines: 0 },
  { name: 'garbage input: non-string fields', id: 'Edit', input: { file_path: 5, old_string: {}, new_string: [] }, kind: 'edit', paths: [], lines: 0 },
  { name: 'unknown tool', id: 'frob', input: { path: 'p' }, kind: 'other', paths: ['p'], lines: 0 },
];
for (const row of extractRows) {
  test(`extractCall: ${row.name}`, () => {
    const c = extractCall(row.id, row.input);
    assert.equal(c.kind, row.kind);
    assert.deepEqual(c.paths, row.paths);
    assert.equal(c.command, row.command);
    assert.equal(c.cwd, row.cwd);
    assert.equal(callEditLines(row.id, row.input), row.lines);
  });
}

const lineRows: [string, Parameters<typeof editLineCount>[0], number][] = [
  ['pure insertion', { kind: 'replace', oldText: 'a\nb', newText: 'a\nx\ny\nb' }, 2],
  ['pure deletion', { kind: 'replace', oldText: 'a\nx\ny\nz\nb', newText: 'a\nb' }, 3],
  ['identical text', { kind: 'replace', oldText: 'a\nb', newText: 'a\nb' }, 0],
  ['trailing newline is not a line', { kind: 'write', content: 'a\n' }, 1],
  ['CRLF', { kind: 'write', content: 'a\r\nb\r\n' }, 2],
  ['empty write', { kind: 'write', content: '' }, 0],
  ['multi sums', { kind: 'multi', edits: [{ oldText: 'a', newText: 'b' }, { oldText: 'c', newText: 'd' }, { oldText: '', newText: 'x\ny' }] }, 4],
  ['patch blocks take max', { kind: 'patch', patch: '@@\n-a\n-b\n+c\n ctx\n+d' }, 3],
];
for (const [name, shape, want] of lineRows) test(`editLineCount: ${name}`, () => assert.equal(editLineCount(shape), want));

test('stategate\'s own tools are one list: the agent tools table, the policy\'s own tools, and package.json languageModelTools', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { AGENT_TOOLS } = require('../../src/engine/runs/agent-tools') as typeof import('../../src/engine/runs/agent-tools');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require('../../package.json') as { contributes: { languageModelTools: { name: string; inputSchema: unknown }[] } };
  const table = AGENT_TOOLS.map((t) => t.name).sort();
  assert.deepEqual([...OWN_TOOLS].sort(), table);
  assert.deepEqual(pkg.contributes.languageModelTools.map((t) => t.name).sort(), table);
  for (const spec of AGENT_TOOLS) {
    assert.deepEqual(pkg.contributes.languageModelTools.find((t) => t.name === spec.name)?.inputSchema, spec.inputSchema, `${spec.name}: package.json's inputSchema is the table's`);
  }
});
