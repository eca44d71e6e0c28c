/**
 * Differential fuzzing of the shell analysis against real bash: random token
 * soups are analysed; every one the analysis ALLOWS is then run by bash in a
 * sandbox-ish setting (a scratch directory, a PATH whose only extra program is
 * the marker), and must not do the forbidden thing.
 *
 * - mode `commands`: allowed_commands hold every plain word in the token set
 *   but `mark`; bash must never run `mark` (a script that leaves a file).
 * - mode `env`: blocked_env ["SECRET"], no command list; bash runs with
 *   SECRET=PWN3D and its output must never contain the value.
 * - mode `writes`: no Write/Edit, no command list; bash must not create a
 *   file in its (otherwise empty) working directory.
 *
 * The tokens hold nothing that deletes; redirects write only in the scratch
 * directory, or as `/dev/null<junk>` files, which are removed after each run.
 * Usage: node --import tsx test/fuzz/shell-vs-bash.ts commands|env|writes [seed] [count]
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseWithParser, type ShellRules } from '../../src/engine/shell/analyse';
import { loadShellParser } from '../../src/engine/shell/parser';
import { removeTempDir, tempDir } from '../unit/helpers/temp-dir';

export type Mode = 'commands' | 'env' | 'writes';

const SHARED = [
  ' ', ' ', ' ', '\\', '#', '$(', ')', '`', ';', '\n', '<<EOF', '\nEOF\n', "<<'EOF'", '{', '}', "'", '"', '$x', '\\\n', '\\ ', '|', 'eval', 'sh -c',
  '${x:-', '$((', '))', "$'", 'f()', 'x=', '<', '2>&1', '>/dev/null', '$[', ']', '((', '${x#', `"\${x:-'`, `'}"`, '$"', '[', '=', '\\$', 'bash -c', '<<<',
];
const TOKENS: Record<Mode, string[]> = {
  commands: [...SHARED, 'true', 'mark', '&&', '||', '<<-EOF', '\n\tEOF\n', '(', 'a', '\t', 'case', 'in', 'esac', ';;', 'if', 'then', 'fi', 'do', 'done', 'for', 'while', '!', '[[', ']]', '<(', 'time', 'env', 'command'],
  env: [...SHARED, 'echo', 'printf %s', '$SECRET', '${SECRET}', 'SECRET', '$', '!', '*', '@', 'env', 'printenv', 'set', 'declare', 'typeset', 'local', 'export', '-p', '-n', 'r=', '$r', '${!', 'S*', '${#', 'cat', '/proc/self/environ', '<<<', 'compgen', '-v', 'xargs', 'SEC', 'RET', '${SEC', 'RET}', '\\x24', 'read', 'a', '${!SECRET}', '${SECRET:0:2}', '$((SECRET))', 'declare -p', "$'\\x24SECRET'", '\\$SECRET'],
  writes: [...SHARED, '>', '>>', '>|', '&>', '2>', '1>', '>&', 'out', '-', '1', '2', 'tee', 'echo', 'true', '/dev/null', 'exec', '{fd}', '3', '<>', 'cat', 'x'],
};
const RULES: Record<Mode, ShellRules> = {
  commands: { allowedCommands: ['true', 'a', 'x', 'EOF', 'f', 'in', 'do', 'done', 'then', 'fi', 'esac', 'case', 'for', 'while', 'if', 'time', 'env', 'command', 'x='], blockedEnv: [], writeAllowed: true },
  env: { blockedEnv: ['SECRET'], writeAllowed: true },
  writes: { blockedEnv: [], writeAllowed: false },
};

/** Regular files named like `/dev/null<something>`: only a fuzzed redirect makes those. */
function devStrays(): string[] {
  try {
    return readdirSync('/dev').filter((n) => n.startsWith('null') && n !== 'null' && statSync(join('/dev', n)).isFile());
  } catch {
    return [];
  }
}

export interface FuzzReport {
  readonly tried: number;
  readonly allowed: number;
  readonly bypasses: string[];
}

export async function differential(mode: Mode, seed: number, count: number): Promise<FuzzReport> {
  const parser = await loadShellParser();
  const bin = tempDir('stategate-fuzz-bin-');
  const dir = tempDir('stategate-fuzz-');
  const marker = join(bin, 'ran');
  writeFileSync(join(bin, 'mark'), `#!/bin/sh\necho ran >> '${marker}'\n`);
  chmodSync(join(bin, 'mark'), 0o755);
  let state = seed >>> 0 || 1;
  const rnd = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state % n;
  };
  const tokens = TOKENS[mode];
  const bypasses: string[] = [];
  let allowed = 0;
  try {
    for (let i = 0; i < count; i++) {
      let cmd = '';
      for (let j = 2 + rnd(9); j > 0; j--) cmd += tokens[rnd(tokens.length)];
      if (mode === 'commands' && !cmd.includes('mark')) cmd += ' mark';
      if (!analyseWithParser(parser, cmd, RULES[mode]).ok) continue;
      allowed++;
      rmSync(marker, { force: true });
      for (const f of readdirSync(dir)) rmSync(join(dir, f), { recursive: true, force: true });
      const r = spawnSync('bash', ['-c', cmd], { cwd: dir, env: { PATH: `${bin}:/usr/bin:/bin`, SECRET: 'PWN3D' }, timeout: 2000, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
      // `>/dev/null` glued to other tokens creates files in /dev: remove them, and count them as writes.
      const strays = devStrays();
      for (const f of strays) rmSync(join('/dev', f), { force: true });
      const wrote = readdirSync(dir).length > 0 || strays.length > 0;
      const leaked = mode === 'env' ? output.includes('PWN3D') : mode === 'writes' ? wrote : existsSync(marker);
      if (leaked) bypasses.push(cmd);
    }
  } finally {
    removeTempDir(dir);
    removeTempDir(bin);
  }
  return { tried: count, allowed, bypasses };
}

if (require.main === module) {
  const mode = (process.argv[2] ?? 'commands') as Mode;
  void differential(mode, Number(process.argv[3] ?? 1), Number(process.argv[4] ?? 5000)).then((r) => {
    for (const b of r.bypasses) console.log('BYPASS', JSON.stringify(b));
    console.log(JSON.stringify({ mode, tried: r.tried, allowed: r.allowed, bypasses: r.bypasses.length }));
    process.exit(r.bypasses.length ? 1 : 0);
  });
}
