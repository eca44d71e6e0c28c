/**
 * In-process decisions on shell calls with the parser warm: the shell
 * analysis the runner does (`analyseForPolicy`, the shell gate) plus the
 * policy's `decide()` on the call, against the shell parser's own parse of
 * the same command (web-tree-sitter + tree-sitter-bash, tree freed after).
 * Targets: p99 ≤ 200 µs and ≤ 1.5× the bare parse.
 */
import { createMachineEnv } from '../../src/engine/machine/env.js';
import { startRun } from '../../src/engine/machine/operations.js';
import { decide, shellRulesFor } from '../../src/engine/policy/decide.js';
import { hashText } from '../../src/engine/machine/run.js';
import type { RunSnapshot } from '../../src/engine/machine/run.js';
import { analyseForPolicy, rewriteForPolicy } from '../../src/engine/shell/gate.js';
import { loadShellParser } from '../../src/engine/shell/parser.js';
import { extractCall } from '../../src/engine/agent/tools.js';
import { pendingRow, ratioRow, type Row } from '../row.js';
import { summarise } from '../stats.js';

export interface DecideOptions {
  /** Timed calls per command, each side. */
  readonly calls: number;
}

/** Typical agent commands, and worst cases (long, nested, every construct the analyser must walk). */
export const COMMANDS: ReadonlyArray<{ readonly kind: 'typical' | 'worst'; readonly command: string }> = [
  { kind: 'typical', command: 'npm test' },
  { kind: 'typical', command: 'git status --short && git diff --stat' },
  { kind: 'typical', command: 'npm test -- --grep "policy" 2>&1 | tail -n 40' },
  {
    kind: 'worst',
    command: [
      'for f in $(git diff --name-only HEAD~3 -- "src/**/*.ts"); do',
      '  if [ -f "$f" ] && grep -q "TODO" "$f"; then echo "$f: $(wc -l < "$f") lines" >> /tmp/todo.txt; fi;',
      'done;',
      'bash -c \'npm test -- --reporter=dot 2>&1 | tee test.log | grep -E "^(ok|not ok)" | sort | uniq -c\';',
      'FOO=$(cat .env | grep API_KEY | cut -d= -f2) node -e "console.log(process.env.FOO)" > out.txt 2>&1 &&',
      'cat <<EOF > notes.txt',
      'echo "${HOME}/$(whoami)" && ls -la "$(pwd)"/{src,test,docs}/*.md',
      'EOF',
      '{ git status --porcelain; git log --oneline -n 20; } | awk \'{print $1}\' | xargs -n 1 echo',
    ].join('\n'),
  },
  { kind: 'worst', command: Array.from({ length: 40 }, (_, i) => `git diff --stat HEAD~${i} -- "src/file-${i}.ts" | grep -v "^$" | head -n ${i + 1}`).join(' && ') },
];

const WORKFLOW = JSON.stringify({
  id: 'bench-decide',
  initial: 'work',
  states: {
    work: {
      allowed_tools: ['Read', 'Edit', 'Bash'],
      allowed_commands: ['npm test', 'git status', 'git diff', 'git log', 'grep', 'tail', 'head', 'sort', 'uniq', 'wc', 'echo', 'ls', 'cat', 'awk', 'xargs', '[', 'tee', 'cut', 'node -e', 'sh', 'bash', 'pwd', 'whoami'],
      blocked_env: ['API_KEY', 'AWS_SECRET_ACCESS_KEY'],
      on: { DONE: 'done' },
    },
    done: { type: 'final' },
  },
});

export async function measureDecide(opts: DecideOptions): Promise<Row[]> {
  const target = 'p99 ≤ 200 µs and ≤ 1.5× bare parse';
  const env = createMachineEnv();
  const wf = env.load(WORKFLOW);
  if (!wf) throw new Error('decide workflow does not load');
  const started = startRun(wf, WORKFLOW, { runId: 'bench', hash: hashText(WORKFLOW) }, env);
  const run: RunSnapshot | undefined = started.run;
  const node = wf.states.get('work');
  if (!run || !node) throw new Error('decide workflow does not start');
  const parser = await loadShellParser();

  // One pair of rows per command: pooled samples of commands that differ tenfold in size
  // put the median between them, and the ratio of two such medians says nothing.
  const rows: Row[] = [];
  const seen = { typical: 0, worst: 0 };
  for (const { kind, command } of COMMANDS) {
    const measure = `decide() with its shell analysis, ${kind} command ${++seen[kind]} (${label(command)}), parser warm`;
    const call = { tool: 'Bash', input: { command } };
    const rules = shellRulesFor(node, extractCall(call.tool, call.input), call.tool);
    if (!rules) throw new Error('the bench state should restrict commands');
    const probe = await analyseForPolicy(command, rules);
    if (!probe.ok && /not available/.test(probe.reason)) {
      rows.push(pendingRow(measure, target, `shell analysis is not wired in yet (shell-gate.ts: "${probe.reason}")`));
      continue;
    }
    // An allowed command is walked to the end; a denial could stop early and flatter the numbers.
    if (!probe.ok) throw new Error(`bench command should be allowed: ${probe.reason}`);
    const subject = async (): Promise<number> => {
      const t0 = performance.now();
      // What Runner.tool does before its lock (analysis, rewrite for blocked_env), then the policy.
      const shell = await analyseForPolicy(command, rules);
      const rewrite = { command: rewriteForPolicy(command, node.rules.blockedEnv, node.rules.envOverrides) };
      decide(run, call, env, { shell, rewrite });
      return performance.now() - t0;
    };
    const baseline = (): number => {
      const t0 = performance.now();
      parser.withTree(command, (root) => root?.type);
      return performance.now() - t0;
    };
    for (let i = 0; i < Math.min(200, opts.calls); i++) {
      await subject();
      baseline();
    }
    const ours: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < opts.calls; i++) {
      ours.push(await subject());
      bare.push(baseline());
    }
    const s = summarise(ours);
    const b = summarise(bare);
    const baselineName = 'tree-sitter-bash parse of the same command';
    rows.push(ratioRow({ measure, stat: 'p50', unit: 'µs', value: s.p50 * 1000, baseline: b.p50 * 1000, baselineName, target: '(informative)', note: `${opts.calls} calls, interleaved with the baseline's` }));
    rows.push(ratioRow({ measure, stat: 'p99', unit: 'µs', value: s.p99 * 1000, baseline: b.p99 * 1000, baselineName, target, pass: s.p99 * 1000 <= 200 && s.p99 <= 1.5 * b.p99 }));
  }
  return rows;
}

/** A command as a table cell: its first line, shortened, with its length when cut. */
function label(command: string): string {
  const first = command.split('\n')[0]!.replace(/\|/g, '\\|');
  return first.length > 40 || command.includes('\n') ? `\`${first.slice(0, 37)}…\`, ${command.length} chars` : `\`${first}\``;
}
