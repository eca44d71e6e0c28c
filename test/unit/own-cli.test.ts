/**
 * stategate's own CLI run by the agent through a shell tool (issue 12,
 * part 4): a person's commands are denied in every enforced state, with or
 * without shell rules; the agent's own (run state, run send, validate, ...)
 * pass. Each row: a command, the state's allowed_commands (undefined: no shell
 * rule at all), and the verdict or a fragment of the reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseCommand } from '../../src/engine/shell/analyse';
import { ownCliDenial } from '../../src/engine/shell/own-cli';
import type { AgentAct } from '../../src/engine/model/workflow';
import type { Word } from '../../src/engine/shell/words';

const ALL = undefined;
const LAUNCHERS = ['stategate', 'npx', 'npm', 'node', 'pnpm', 'yarn', 'bunx', 'cd', 'env'];

type Row = readonly [command: string, allowedCommands: readonly string[] | undefined, verdict: true | RegExp];

const rows: Row[] = [
  ['stategate run approve', ALL, /`stategate run approve` is a person's command, not the agent's: approval is never granted by the agent.*An agent may run `stategate run state`/],
  ['stategate run reject', ALL, /`stategate run reject` is a person's command/],
  ['stategate run stop', ALL, /`stategate run stop` is a person's act here: stopping the run ends it and its enforcement/],
  // Acts a workflow may grant (meta.agent_may): without the grant the reason says how a person does it, never
  // that the agent has a tool for it (statewright_pause / load_workflow are refused the same way now).
  ['stategate run pause', ALL, /`stategate run pause` is a person's act here: pausing the run turns its enforcement off.*"stategate: Pause Run" in VS Code.*`stategate run pause` in their own terminal/],
  ['stategate run resume wf.json', ALL, /`stategate run resume` is a person's act here.*meta.agent_may does not grant "load_workflow".*`stategate run resume FILE` in their own terminal/],
  ['stategate run start other.workflow.json', ALL, /`stategate run start` is a person's act here.*`stategate run start FILE`/],
  ['stategate run force done', ALL, /`stategate run force` is a person's act here.*"force".*`stategate run force STATE` in their own terminal/],
  ['stategate run force done', ALL, /`stategate run force`/],
  ['stategate run reload', ALL, /`stategate run reload`/],
  ['stategate run file-changed .env', ALL, /fire interrupts/],
  ['stategate run tool Bash', ALL, /`stategate run tool`/],
  ['stategate disable', ALL, /`stategate disable`.*hooks/],
  ['stategate enable --client claude', ALL, /`stategate enable`/],
  ['echo {} | stategate hook', ALL, /`stategate hook`/],
  ['stategate run --dir .stategate approve', ALL, /`stategate run approve`/],
  ['stategate run --dir=.stategate approve --branch b', ALL, /`stategate run approve`/],
  ['stategate run --branch b approve', ALL, /`stategate run b`/],
  ['stategate run "$VERB"', ALL, /only known when it runs/],
  ['/usr/local/bin/stategate run approve', ALL, /`stategate run approve`/],
  ['./node_modules/.bin/stategate run stop', ALL, /`stategate run stop`/],
  ['npx stategate run approve', ALL, /`stategate run approve`/],
  ['npx --yes stategate@latest run approve', ALL, /`stategate run approve`/],
  ['npx -p stategate stategate run approve', ALL, /`stategate run approve`/],
  ['npm exec -- stategate run approve', ALL, /`stategate run approve`/],
  ['npm x stategate disable', ALL, /`stategate disable`/],
  ['pnpm dlx stategate run approve', ALL, /`stategate run approve`/],
  ['pnpm exec stategate run stop', ALL, /`stategate run stop`/],
  ['yarn stategate run approve', ALL, /`stategate run approve`/],
  ['bunx stategate run approve', ALL, /`stategate run approve`/],
  ['node dist/cli.js run approve', ALL, /`stategate run approve`/],
  ['node ./dist/../dist/cli.js run approve', ALL, /`stategate run approve`/],
  ['node /home/u/.vscode/extensions/pub.stategate-0.1.0/dist/cli.js disable', ALL, /`stategate disable`/],
  ['node --no-warnings node_modules/stategate/dist/cli.js run stop', ALL, /`stategate run stop`/],
  ['node dist/cli run approve', ALL, /`stategate run approve`/],
  ['./dist/cli.js run approve', ALL, /`stategate run approve`/],
  ['cd .. && stategate run approve', ALL, /`stategate run approve`/],
  ['env -u X stategate run approve', ALL, /`stategate run approve`/],
  ['timeout 5 stategate run approve', ALL, /`stategate run approve`/],
  ["bash -c 'stategate run approve'", ALL, /`stategate run approve`/],
  ['eval "stat""egate run approve"', ALL, /`stategate run approve`/],
  ["st'a'tegate run approve", ALL, /`stategate run approve`/],
  ["$'\\x73tategate' run approve", ALL, /`stategate run approve`/],
  ['echo approve | xargs stategate run', ALL, /only known when it runs/],
  ['true; stategate run approve', ALL, /`stategate run approve`/],
  ['source .venv/bin/activate && stategate run approve', ALL, /`stategate run approve`/],
  ['stategate run approve; (', ALL, /`stategate run approve`/],
  ['$EDITOR notes.txt; for ((i = 0; i < n; i++)); do :; done; stategate run stop', ALL, /`stategate run stop`/],
  ['node $(pwd)/dist/cli.js run approve', ALL, /`stategate run approve`/],
  ['"$HOME/bin/stategate" run stop', ALL, /`stategate run stop`/],
  ['~/.local/bin/stategate disable', ALL, /`stategate disable`/],
  ['stategate flow run evil.flow.json', ALL, /`stategate flow` is a person's command/],
  ['x=$(stategate run approve)', ALL, /`stategate run approve`/],
  // under allowed_commands: the same, even where the launcher is allowed
  ['stategate run approve', ['stategate'], /`stategate run approve`/],
  ['npx stategate run approve', LAUNCHERS, /`stategate run approve`/],
  ['node dist/cli.js run approve', ['node'], /`stategate run approve`/],
  ['npm exec stategate run stop', ['npm'], /`stategate run stop`/],
  // what the agent may run
  ['stategate run state', ALL, true],
  ['stategate run send DONE --data \'{"ok":true}\'', ALL, true],
  ['stategate run --dir .stategate send DONE', ALL, true],
  ['stategate run bind --session sub-1 --branch lint', ALL, true],
  ['stategate validate a.workflow.json', ALL, true],
  ['stategate export a.workflow.json --format mermaid', ALL, true],
  ['stategate --help', ALL, true],
  ['stategate run --help', ALL, true],
  ['npx stategate run state', LAUNCHERS, true],
  ['node dist/cli.js run send DONE', ['node'], true],
  ['node src/cli.js run approve', ALL, true],
  ['npm run build', ALL, true],
  ['cargo clippy', ALL, true],
  ['echo "stategate run approve"', ALL, true],
];

for (const [command, allowedCommands, verdict] of rows) {
  test(`${verdict === true ? 'allows' : 'denies'} ${JSON.stringify(command)} ${allowedCommands ? `under ${JSON.stringify(allowedCommands)}` : 'with no shell rule'}`, async () => {
    const rules = allowedCommands ? { allowedCommands, blockedEnv: [], writeAllowed: true } : { blockedEnv: [], writeAllowed: true };
    const v = await analyseCommand(command, rules);
    if (verdict === true) assert.deepEqual(v, { ok: true });
    else {
      assert.equal(v.ok, false, 'was allowed');
      if (!v.ok) assert.match(v.reason, verdict);
    }
  });
}

test('with no shell rule, other problems of the command do not deny (only the own-CLI check holds there)', async () => {
  const free = { blockedEnv: [], writeAllowed: true };
  assert.deepEqual(await analyseCommand('source x.sh; echo "$(( n + 1 ))" stategate', free), { ok: true });
  assert.deepEqual(await analyseCommand('pytest (', free), { ok: true });
});


/** Words as the shell analysis hands them to ownCliDenial (all literal here). */
const words = (line: string): Word[] => line.split(' ').map((value) => ({ value, text: value, dynamic: false }));

// meta.agent_may: a granted act passes the own-CLI check; every other person's command stays denied.
const grantRows: readonly (readonly [command: string, granted: readonly AgentAct[], allowed: boolean])[] = [
  ['stategate run stop', ['stop'], true],
  ['stategate run stop', ['pause', 'load_workflow', 'force'], false],
  ['stategate run pause', ['pause'], true],
  ['stategate run pause', [], false],
  ['npx stategate run start other.workflow.json', ['load_workflow'], true],
  ['stategate run resume wf.json', ['load_workflow'], true],
  ['stategate run resume wf.json', ['stop'], false],
  ['stategate run force done', ['force'], true],
  ['stategate run approve', ['pause', 'stop', 'load_workflow', 'force'], false],
  ['stategate run reload', ['pause', 'stop', 'load_workflow', 'force'], false],
  ['stategate disable', ['pause', 'stop', 'load_workflow', 'force'], false],
];

for (const [command, granted, allowed] of grantRows) {
  test(`ownCliDenial: ${JSON.stringify(command)} with agent_may ${JSON.stringify(granted)} is ${allowed ? 'allowed' : 'denied'}`, () => {
    const reason = ownCliDenial(words(command), granted);
    if (allowed) assert.equal(reason, undefined);
    else assert.match(reason ?? '', /is a person's/);
  });
}
