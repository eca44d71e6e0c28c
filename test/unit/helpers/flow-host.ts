/**
 * A FlowHost for the runner's unit tests: `bash` really runs (bash -c in the
 * workspace, in its own process group so a stop kills its children too),
 * the other effects are scripted. Progress and output are collected for
 * assertions. (The real hosts are src/engine/flow/effects/ and the extension's.)
 */
import { spawn } from 'node:child_process';
import type { AskRequest, CommandRequest, FlowHost, IssueRequest, PromptRequest, ToolOutcome } from '../../../src/engine/flow/host.js';

export interface TestHostOptions {
  /** ask-user: answers by question; absent: headless (exit 1, a message naming the state). */
  readonly ask?: (req: AskRequest) => string | undefined;
  readonly prompt?: (req: PromptRequest) => ToolOutcome;
  readonly issue?: (req: IssueRequest) => ToolOutcome;
}

export interface TestHost extends FlowHost {
  readonly lines: string[];
  readonly stderr: string[];
  readonly asked: AskRequest[];
  readonly prompts: PromptRequest[];
}

export function testHost(workspace: string, opts: TestHostOptions = {}): TestHost {
  const lines: string[] = [];
  const stderr: string[] = [];
  const asked: AskRequest[] = [];
  const prompts: PromptRequest[] = [];
  return {
    workspace,
    lines,
    stderr,
    asked,
    prompts,
    sink: {
      progress: (line) => lines.push(line),
      output: (_state, chunk) => stderr.push(chunk),
    },
    runCommand: (req) => runBash(req, stderr),
    async askUser(req) {
      asked.push(req);
      const answer = opts.ask?.(req);
      return answer === undefined ? { exitCode: 1, stdout: '', message: `no one to answer \`${req.state}\` (headless): pass --answers` } : { exitCode: 0, stdout: answer };
    },
    async prompt(req) {
      prompts.push(req);
      return opts.prompt?.(req) ?? { exitCode: 1, stdout: '', message: `no ${req.vendor} here` };
    },
    async claudeCode(req) {
      prompts.push(req);
      return opts.prompt?.(req) ?? { exitCode: 1, stdout: '', message: 'no claude here' };
    },
    async ghIssue(req) {
      return opts.issue?.(req) ?? { exitCode: 1, stdout: '', message: 'no gh here' };
    },
    now: () => new Date(),
  };
}

function runBash(req: CommandRequest, stderr: string[]): Promise<ToolOutcome> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', req.command], { cwd: req.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...req.env } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => stderr.push(c));
    const kill = (): void => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    };
    req.signal.addEventListener('abort', kill, { once: true });
    child.on('spawn', () => child.pid && req.onStarted?.(child.pid));
    child.on('error', (err) => resolve({ exitCode: 127, stdout, message: err.message }));
    child.on('close', (code, signal) => {
      req.signal.removeEventListener('abort', kill);
      resolve({ exitCode: code ?? 128 + (signal === 'SIGKILL' ? 9 : 15), stdout });
    });
  });
}
