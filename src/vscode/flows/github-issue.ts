/**
 * `get-gh-issue` through VS Code's GitHub sign-in: the REST API with the
 * session's token. The repository is the `repo` argument or the workspace's
 * `origin` remote on github.com. No 'vscode' here (the token comes in), so
 * the unit tests drive it with a fake fetch.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { IssueRequest, ToolOutcome } from '../../engine/flow/host.js';

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

/** The fields `gh issue view --json` is asked for, so a flow reads the same JSON from either path. */
interface RestIssue {
  number: number;
  title: string;
  body: string | null;
  state: string;
  html_url: string;
  user?: { login?: string } | null;
  labels?: ({ name?: string } | string)[];
  assignees?: { login?: string }[];
  comments?: number;
  created_at?: string;
  updated_at?: string;
}

/** A REST issue in the shape of `gh issue view N --json number,title,body,state,url,author,labels,assignees,createdAt,updatedAt`. */
export function ghShape(i: RestIssue): Record<string, unknown> {
  return {
    number: i.number,
    title: i.title,
    body: i.body ?? '',
    state: i.state.toUpperCase(),
    url: i.html_url,
    author: { login: i.user?.login ?? '' },
    labels: (i.labels ?? []).map((l) => ({ name: typeof l === 'string' ? l : (l.name ?? '') })),
    assignees: (i.assignees ?? []).map((a) => ({ login: a.login ?? '' })),
    createdAt: i.created_at ?? '',
    updatedAt: i.updated_at ?? '',
  };
}

export type Fetch = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<{ ok: boolean; status: number; json(): Promise<unknown>; text(): Promise<string> }>;

/** Reads the issue with the token; every failure is an outcome with a message naming the issue and the cause. */
export async function fetchIssue(req: IssueRequest, token: string, fetchFn: Fetch = fetch as unknown as Fetch): Promise<ToolOutcome> {
  const repo = req.repo ?? (await originRepo(req.cwd));
  if (!repo) return { exitCode: 1, stdout: '', message: `get-gh-issue: which repository? The workspace has no github.com \`origin\` remote; add \`repo: OWNER/NAME\` to the state's arguments.` };
  if (!/^\d+$/.test(req.issueNumber.trim())) return { exitCode: 1, stdout: '', message: `get-gh-issue: "${req.issueNumber}" is not an issue number.` };
  const url = `https://api.github.com/repos/${repo}/issues/${req.issueNumber.trim()}`;
  try {
    const res = await fetchFn(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/vnd.github+json', 'X-GitHub-Api-Version': '2022-11-28' }, signal: req.signal });
    if (!res.ok) return { exitCode: 1, stdout: '', message: `get-gh-issue: GitHub answered ${res.status} for ${repo}#${req.issueNumber}: ${(await res.text()).slice(0, 300)}` };
    return { exitCode: 0, stdout: `${JSON.stringify(ghShape((await res.json()) as RestIssue), null, 2)}\n` };
  } catch (err) {
    return { exitCode: 1, stdout: '', message: `get-gh-issue: could not reach GitHub for ${repo}#${req.issueNumber}: ${(err as Error)?.message ?? String(err)}` };
  }
}
