import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { propertyRuns } from './support/property-runs';
import { analyseCommand, rewriteCommand, type ShellRules } from '../../src/engine/shell/analyse';
import { matchCommand, wordMatches } from '../../src/engine/shell/command-match';
import type { Word } from '../../src/engine/shell/words';
import { requireShared } from './helpers/shared-material';
import { readShellCorpus, type CorpusRow } from './support/shell-corpus';

const STRICT: ShellRules = { allowedCommands: ['pytest', 'npm test'], blockedEnv: ['AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN'], writeAllowed: false };

/** Fixture format: see the header of adversarial.txt / legitimate.txt. */
const readCorpus = (file: string): CorpusRow[] => readShellCorpus(file, STRICT);

const adversarial = readCorpus('adversarial.txt');
const legitimate = readCorpus('legitimate.txt');
test('the adversarial corpus has at least 200 commands', () => assert.ok(adversarial.length >= 200, String(adversarial.length)));
test('the legitimate corpus has at least 100 commands', () => assert.ok(legitimate.length >= 100, String(legitimate.length)));

for (const row of adversarial) {
  test(`denied: ${row.label}`, async () => {
    const v = await analyseCommand(row.command, row.rules);
    assert.equal(v.ok, false, 'was allowed');
    if (!v.ok) assert.ok(v.reason.length > 0);
  });
}
for (const row of legitimate) {
  test(`allowed: ${row.label}`, async () => {
    const v = await analyseCommand(row.command, row.rules);
    assert.equal(v.ok, true, v.ok ? '' : v.reason);
  });
}

// Every allowed_commands entry of the real workflows is exercised by a legitimate
// row run under that state's own list (a plain split is enough for these rows).
// Without ../shared/corpus there are no such rows (and the presence test says why).
const CORPUS = requireShared('corpus').dir;
function corpusEntries(): { list: string[]; where: string }[] {
  const out: { list: string[]; where: string }[] = [];
  const walk = (dir: string): void => {
    for (const f of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, f.name);
      if (f.isDirectory()) walk(p);
      else if (f.name.endsWith('.json')) {
        const j = JSON.parse(readFileSync(p, 'utf8')) as { definition?: unknown; states?: Record<string, { allowed_commands?: string[] }> };
        const wf = (j.definition ?? j) as { states?: Record<string, { allowed_commands?: string[] }> };
        for (const [name, st] of Object.entries(wf.states ?? {})) if (st.allowed_commands) out.push({ list: st.allowed_commands, where: `${f.name} ${name}` });
      }
    }
  };
  if (existsSync(CORPUS)) walk(CORPUS);
  return out;
}
const plainWords = (cmd: string): Word[] => cmd.split(/\s+/).filter(Boolean).map((w) => ({ value: w.replace(/^['"]|['"]$/g, ''), dynamic: false, text: w }));
for (const { list, where } of corpusEntries()) {
  for (const entry of list) {
    test(`legitimate.txt exercises \`${entry}\` under the list of ${where}`, () => {
      const rows = legitimate.filter((r) => JSON.stringify(r.rules.allowedCommands) === JSON.stringify(list));
      assert.ok(rows.some((r) => matchCommand(plainWords(r.command), [entry]).ok), `no row for ${entry}`);
    });
  }
}

// Reasons say what was wrong (the agent reads them).
const reasonRows: [string, ShellRules, RegExp][] = [
  ['pytest; rm -rf /', { ...STRICT, writeAllowed: true }, /`rm -rf \/` is not an allowed command here \(allowed: pytest, npm test\)/],
  ['pytest > out.txt', STRICT, /writes to a file \(> out\.txt\)/],
  ['echo $GITHUB_TOKEN', { ...STRICT, allowedCommands: undefined }, /blocked variable GITHUB_TOKEN/],
  ['$CMD x', STRICT, /only known when it runs/],
  ['pytest (', STRICT, /does not parse/],
  ['env', { ...STRICT, allowedCommands: undefined }, /prints the environment/],
  ['source x.sh', { ...STRICT, allowedCommands: undefined }, /sourcing a file/],
  ['npm te*t', STRICT, /is not an allowed command here/],
  ['npm $X', STRICT, /word only known when it runs/],
  ['rm x', { allowedCommands: undefined, blockedEnv: [], writeAllowed: false }, /writes files/],
];
for (const [command, rules, want] of reasonRows) {
  test(`reason for ${JSON.stringify(command)}`, async () => {
    const v = await analyseCommand(command, rules);
    assert.equal(v.ok, false);
    if (!v.ok) assert.match(v.reason, want);
  });
}

// Rules not in force: the command passes (it is parsed only to report what it writes).
const freeRows: [string, ShellRules, boolean][] = [
  ['rm -rf / > x; $(anything', { allowedCommands: undefined, blockedEnv: [], writeAllowed: true }, true],
  ['whoami', { allowedCommands: undefined, blockedEnv: ['X'], writeAllowed: true }, true],
  ['echo $X', { allowedCommands: undefined, blockedEnv: ['X'], writeAllowed: true }, false],
  ['pytest > out', { allowedCommands: ['pytest'], blockedEnv: [], writeAllowed: true }, true],
  ['echo x > .stategate/workflows/next.json', { allowedCommands: ['echo'], blockedEnv: [], writeAllowed: true }, true],
  ['cat .stategate/active', { allowedCommands: ['cat'], blockedEnv: [], writeAllowed: true }, true],
  ['pytest', { allowedCommands: [], blockedEnv: [], writeAllowed: true }, false],
  ['sudo apt-get update', { allowedCommands: ['sudo apt-get update', 'apt-get update'], blockedEnv: [], writeAllowed: true }, true],
  ['sudo apt-get update', { allowedCommands: ['apt-get update'], blockedEnv: [], writeAllowed: true }, false],
  ['source venv/bin/activate && pytest', { allowedCommands: ['source venv/bin/activate', 'pytest'], blockedEnv: [], writeAllowed: true }, true],
  ['printenv HOME', { allowedCommands: undefined, blockedEnv: ['X'], writeAllowed: true }, true],
  ['find . -name x -exec grep -l y {} +', { allowedCommands: ['find', 'grep'], blockedEnv: [], writeAllowed: false }, true],
  ['find . -exec rm {} +', { allowedCommands: ['find', 'rm'], blockedEnv: [], writeAllowed: true }, true],
  ['find . -exec rm {} +', { allowedCommands: ['find'], blockedEnv: [], writeAllowed: true }, false],
  ['sed -i s/a/b/ f', { allowedCommands: ['sed'], blockedEnv: [], writeAllowed: true }, true],
  ['curl -o /dev/null http://localhost:1/', { allowedCommands: ['curl'], blockedEnv: [], writeAllowed: false }, true],
  ['curl -o out http://localhost:1/', { allowedCommands: ['curl'], blockedEnv: [], writeAllowed: false }, false],
  ['tar tzf a.tgz', { allowedCommands: undefined, blockedEnv: [], writeAllowed: false }, true],
  ['tar xzf a.tgz', { allowedCommands: undefined, blockedEnv: [], writeAllowed: false }, false],
  ['unzip -l a.zip', { allowedCommands: undefined, blockedEnv: [], writeAllowed: false }, true],
  ['gzip -c f', { allowedCommands: undefined, blockedEnv: [], writeAllowed: false }, true],
  ['gzip f', { allowedCommands: undefined, blockedEnv: [], writeAllowed: false }, false],
  ['pytest | tee -', { allowedCommands: undefined, blockedEnv: [], writeAllowed: false }, false],
  ['pytest | tee -- -a', { allowedCommands: undefined, blockedEnv: [], writeAllowed: false }, false],
  ['pytest | tee /dev/null', { allowedCommands: undefined, blockedEnv: [], writeAllowed: false }, true],
  ['pytest | tee -a /dev/stderr', { allowedCommands: undefined, blockedEnv: [], writeAllowed: false }, true],
];
for (const [command, rules, ok] of freeRows) {
  test(`${ok ? 'allows' : 'denies'} ${JSON.stringify(command)} under ${JSON.stringify(rules)}`, async () => {
    assert.equal((await analyseCommand(command, rules)).ok, ok);
  });
}

const garbage: unknown[] = [undefined, null, 42, {}, ['pytest'], 'x'.repeat(70_000), '\u0000pytest', 'pytest\u0000; whoami'];
for (const input of garbage) {
  test(`fails closed on ${typeof input === 'string' ? `a string of ${input.length}` : JSON.stringify(input)}`, async () => {
    assert.equal((await analyseCommand(input, STRICT)).ok, false);
  });
}

const badRules: unknown[] = [undefined, null, {}, { blockedEnv: 'X' }, { allowedCommands: 'pytest', blockedEnv: [] }, { allowedCommands: [1, null], blockedEnv: [], writeAllowed: 'yes' }];
for (const rules of badRules) {
  test(`malformed rules ${JSON.stringify(rules)} are read strictly, never thrown on`, async () => {
    assert.equal((await analyseCommand('pytest > out', rules as ShellRules)).ok, false);
  });
}

const wordRows: [string, string, boolean][] = [
  ['test', 'test', true],
  ['test', 'testx', false],
  ['--test*', '--test', true],
  ['--test*', '--test-name-pattern=x', true],
  ['http://localhost:*', 'http://localhost:8080/health', true],
  ['http://localhost:*', 'http://evil.example/', false],
  ['a*b*c', 'abc', true],
  ['a*b*c', 'a-b-x', false],
  ['*', '', true],
  ['a?', 'ab', false],
];
for (const [pattern, value, want] of wordRows) test(`wordMatches(${pattern}, ${value}) = ${want}`, () => assert.equal(wordMatches(pattern, value), want));

test('an entry longer than the command does not match', () => {
  assert.equal(matchCommand([{ value: 'npm', dynamic: false, text: 'npm' }], ['npm test']).ok, false);
});

const rewriteRows: [string, string[], Record<string, string>, string][] = [
  ['pytest', [], {}, 'pytest'],
  ['pytest -x', ['A', 'B'], {}, "env -u A -u B bash -c 'pytest -x'"],
  ["echo 'it''s'", ['A'], { K: 'v w' }, "env -u A K='v w' bash -c 'echo '\\''it'\\'''\\''s'\\'''"],
  ['x', ['BAD-NAME', 'OK'], { 'no good': 'x', GOOD: "a'b" }, "env -u OK GOOD='a'\\''b' bash -c 'x'"],
];
for (const [command, blocked, overrides, want] of rewriteRows) {
  test(`rewriteCommand(${JSON.stringify(command)})`, () => assert.equal(rewriteCommand(command, blocked, overrides), want));
}

test('rewriteCommand never throws on malformed lists', () => {
  assert.equal(rewriteCommand('x', 'A' as never, null as never), 'x');
  assert.equal(rewriteCommand('x', [1, 'B'] as never, { C: 2 } as never), "env -u B bash -c 'x'");
});

test('a rewritten command runs the original with the variables unset and overrides set', async () => {
  const { execFileSync } = await import('node:child_process');
  const cmd = rewriteCommand(`printf '%s|%s|%s' "\${SECRET-unset}" "$OVER" 'q"uo'"'"'te'`, ['SECRET'], { OVER: "o'v" });
  const out = execFileSync('sh', ['-c', cmd], { env: { ...process.env, SECRET: 's3', OVER: 'old' }, encoding: 'utf8' });
  assert.equal(out, `unset|o'v|q"uo'te`);
});

// Property: an allowed and a disallowed simple command, joined by any separator, in either order.
const allowedCmd = fc.constantFrom('pytest', 'pytest -x', 'npm test', 'npm test -- -w', "pytest -k 'a b'", 'VAR=1 pytest', 'pytest 2>/dev/null');
const deniedCmd = fc.constantFrom('whoami', 'rm -rf /', 'curl evil.example', 'ls', 'cat x', 'npm testx', "python -c 'print(1)'", 'npm run x', 'echo hi');
const sep = fc.constantFrom(';', '&&', '||', '|', '&', '\n', '|&');
const space = fc.constantFrom('', ' ', '  ');
test('property: allowed + disallowed joined by a separator is denied', async () => {
  await fc.assert(
    fc.asyncProperty(allowedCmd, deniedCmd, sep, space, space, fc.boolean(), async (a, d, s, s1, s2, flip) => {
      const cmd = flip ? `${d}${s1}${s}${s2}${a}` : `${a}${s1}${s}${s2}${d}`;
      return !(await analyseCommand(cmd, STRICT)).ok;
    }),
    propertyRuns(300),
  );
});
test('property: a disallowed command substituted into an allowed one is denied', async () => {
  const wrap = fc.constantFrom((x: string) => `$(${x})`, (x: string) => `\`${x}\``, (x: string) => `"$(${x})"`, (x: string) => `<(${x})`, (x: string) => `"\`${x}\`"`);
  await fc.assert(
    fc.asyncProperty(allowedCmd, deniedCmd, wrap, async (a, d, w) => !(await analyseCommand(`${a} ${w(d)}`, STRICT)).ok),
    propertyRuns(200),
  );
});
