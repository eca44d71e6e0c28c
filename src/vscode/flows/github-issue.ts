/**
 * `get-gh-issue` through VS Code's GitHub sign-in: the REST API with the
 * session's token. The repository is the `repo` argument or the workspace's
 * `origin` remote on github.com. No 'vscode' here (the token comes in), so
 * the unit tests drive it with a fake fetch.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { IssueRequest, ToolOutcome } from '../../engine/index.js';

const run = promisify(execFile);

/** `OWNER/NAME` of a github.com remote URL (https, ssh or scp-like), else undefined. */
export function githubRepoOf(remoteUrl: string): string | undefined {
  const m = /github\.com[:/]+([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?\s*$/i.exec(remoteUrl.trim());
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/** The repository of `cwd`'s `origin` remote, when it is on github.com. */
export async function originRepo(cwd: string): Promise<string | undefined> {
  try {
    const { stdout } = await run('git', ['remote', 'get-url', 'origin'], { cwd, timeout: 10_000 });
    return githubRepoOf(stdout);
  } catch {
    return undefined;
  }
}

/** What the REST API answers of an issue and its comments (the fields read). */
interface RestIssue {
  number: number;
  title: string;
  body: string | null;
  state: string;
  html_url: string;
  labels?: ({ name?: string } | string)[];
}
interface RestComment {
  user?: { login?: string } | null;
  body?: string | null;
  created_at?: string;
  html_url?: string;
}

/**
 * A REST issue in the shape of `gh issue view N --json number,title,body,labels,state,url,comments`
 * (the command-line host's fields, effects/gh-issue.ts), so a flow reads the same JSON either way.
 */
export function ghShape(i: RestIssue, comments: readonly RestComment[] = []): Record<string, unknown> {
  return {
    number: i.number,
    title: i.title,
    body: i.body ?? '',
    labels: (i.labels ?? []).map((l) => ({ name: typeof l === 'string' ? l : (l.name ?? '') })),
    state: i.state.toUpperCase(),
    url: i.html_url,
    comments: comments.map((c) => ({ author: { login: c.user?.login ?? '' }, body: c.body ?? '', createdAt: c.created_at ?? '', url: c.html_url ?? '' })),
  };
}

/** `42`, `#42`, or an issue URL (which names its repository). */
export function issueRef(ref: string): { number: string; repo?: string } | undefined {
  const t = ref.trim();
  const n = /^#?(\d+)$/.exec(t);
  if (n) return { number: n[1]! };
  const u = /^https?:\/\/github\.com\/([\w.-]+\/[\w.-]+)\/issues\/(\d+)\/?$/i.exec(t);
  return u ? { number: u[2]!, repo: u[1]! } : undefined;
}

export type Fetch = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<{ ok: boolean; status: number; json(): Promise<unknown>; text(): Promise<string> }>;

/** Reads the issue (and its comments) with the token; every failure is an outcome with a message naming the issue and the cause. */
export async function fetchIssue(req: IssueRequest, token: string, fetchFn: Fetch = fetch as unknown as Fetch): Promise<ToolOutcome> {
  const ref = issueRef(req.issueNumber);
  if (!ref) return { exitCode: 2, stdout: '', message: `get-gh-issue: issue-number must be an issue number (42 or #42) or a github.com issue URL, got ${JSON.stringify(req.issueNumber)}` };
  const repo = req.repo?.trim() || ref.repo || (await originRepo(req.cwd));
  if (!repo) return { exitCode: 1, stdout: '', message: `get-gh-issue: which repository? The workspace has no github.com \`origin\` remote; add \`repo: OWNER/NAME\` to the state's arguments.` };
  const url = `https://api.github.com/repos/${repo}/issues/${ref.number}`;
  const init = { headers: { Authorization: `Bearer ${token}`, Accept: 'application/vnd.github+json', 'X-GitHub-Api-Version': '2022-11-28' }, signal: req.signal };
  const what = `${repo}#${ref.number}`;
  try {
    const res = await fetchFn(url, init);
    if (!res.ok) return { exitCode: 1, stdout: '', message: `get-gh-issue: GitHub answered ${res.status} for ${what}: ${(await res.text()).slice(0, 300)}` };
    const issue = (await res.json()) as RestIssue;
    const cres = await fetchFn(`${url}/comments?per_page=100`, init);
    if (!cres.ok) return { exitCode: 1, stdout: '', message: `get-gh-issue: GitHub answered ${cres.status} for the comments of ${what}: ${(await cres.text()).slice(0, 300)}` };
    return { exitCode: 0, stdout: `${JSON.stringify(ghShape(issue, (await cres.json()) as RestComment[]), null, 2)}\n` };
  } catch (err) {
    return { exitCode: 1, stdout: '', message: `get-gh-issue: could not reach GitHub for ${what}: ${(err as Error)?.message ?? String(err)}` };
  }
}
