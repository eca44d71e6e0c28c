/**
 * The `get-gh-issue` tool from the command line: `gh issue view N --json …`
 * (with `--repo OWNER/NAME` when given, else the workspace's repository as gh
 * finds it), the issue JSON on stdout. gh missing: exit 127 naming gh and how
 * to get it; in VS Code the extension reads issues with VS Code's GitHub
 * sign-in instead (src/vscode/flows/).
 */
import type { FlowSink, IssueRequest, ToolOutcome } from '../host.js';
import { runInProcessGroup } from './process-group.js';
import { programFor, toOutcome, toolEnv } from './outcome.js';
import type { EffectOptions } from './bash.js';

export const GH_BIN_VARIABLE = 'STATEGATE_GH_BIN';
export const GH_ISSUE_FIELDS = 'number,title,body,labels,state,url,comments';

/** An issue number (`42`, `#42`) or an issue URL; anything else (`--repo=x`) could be read by gh as an option. */
const ISSUE_REF = /^(#?\d+|https?:\/\/\S+\/issues\/\d+)$/;
const REPO = /^[\w.-]+\/[\w.-]+$|^[\w.-]+\/[\w.-]+\/[\w.-]+$/;

export async function readGhIssue(req: IssueRequest, sink: FlowSink, opts: EffectOptions = {}): Promise<ToolOutcome> {
  const ref = req.issueNumber.trim();
  if (!ISSUE_REF.test(ref)) {
    return { exitCode: 2, stdout: '', message: `issue-number must be an issue number (42 or #42) or an issue URL, got ${JSON.stringify(req.issueNumber)}` };
  }
  const repo = req.repo?.trim();
  if (repo !== undefined && repo !== '' && !REPO.test(repo)) {
    return { exitCode: 2, stdout: '', message: `repo must be OWNER/NAME (or HOST/OWNER/NAME), got ${JSON.stringify(req.repo)}` };
  }
  const env = toolEnv(opts.env ?? process.env);
  const program = programFor(env, GH_BIN_VARIABLE, 'gh');
  const result = await runInProcessGroup({
    program,
    args: ['issue', 'view', ref.replace(/^#/, ''), '--json', GH_ISSUE_FIELDS, ...(repo ? ['--repo', repo] : [])],
    cwd: req.cwd,
    env,
    signal: req.signal,
    onStderr: (chunk) => sink.output(req.state, chunk, 'stderr'),
    ...(opts.killGraceMs !== undefined ? { killGraceMs: opts.killGraceMs } : {}),
  });
  return toOutcome(
    result,
    `the get-gh-issue tool needs ${program} (the GitHub CLI), and it is not installed or not on PATH. ` +
      `Install gh (see cli.github.com) and run \`gh auth login\`, or set ${GH_BIN_VARIABLE} to its path. In VS Code, flows read issues with VS Code's GitHub sign-in instead.`,
  );
}
