// The command palette lists a command only where it applies (issue 32, item 7): every contributed
// command either applies everywhere (named below, with why) or has a `when` clause in
// contributes.menus.commandPalette, and every stategate context key such a clause names is set by the
// extension (a key nobody sets would hide its command for good).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './helpers/cli';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));

/** The commands that apply in any window, and why. */
const ALWAYS: Readonly<Record<string, string>> = {
  'stategate.showVersion': 'the version, with or without a folder',
  'stategate.openStoreDocs': 'the shared store docs, to read before a store is set',
  'stategate.showPanel': 'the panel says what to do when there is no run',
  'stategate.exportDiagram': 'the file in the editor or the run; says which to open when there is neither',
  'stategate.exportSvg': 'likewise',
};

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(path.join(dir, d.name)) : [path.join(dir, d.name)]));
}

test('every palette command either always applies or says when it does, with keys the extension sets', () => {
  const when = new Map<string, string>(pkg.contributes.menus.commandPalette.map((m: { command: string; when: string }) => [m.command, m.when]));
  for (const { command } of pkg.contributes.commands as { command: string }[]) {
    if (command in ALWAYS) assert.ok(!when.has(command), `${command} is listed as always applying and has a when clause too`);
    else assert.ok(when.get(command), `${command}: a when clause in menus.commandPalette, or a reason in ALWAYS`);
  }
  // Those that need a folder say so: without one their stand-ins can only ask for a folder.
  for (const command of ['stategate.startRun', 'stategate.showPastRuns', 'stategate.resumeRun', 'stategate.enableEnforcement', 'stategate.disableEnforcement']) {
    assert.match(when.get(command) ?? '', /workspaceFolderCount != 0/, command);
  }
  const sources = filesUnder(path.join(REPO_ROOT, 'src', 'vscode')).map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  const keys = new Set([...when.values()].flatMap((w) => [...w.matchAll(/\bstategate\.\w+/g)].map((m) => m[0])));
  assert.ok(keys.has('stategate.flowRunning') && keys.has('stategate.approvalPending'), [...keys].join(', '));
  for (const key of keys) assert.ok(sources.includes(`'${key}'`), `${key} is set by the extension (src/vscode/)`);
});
