import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';

/** One request the stand-in received. */
export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  token: string | undefined;
  body: any;
}

export type Permissions = { admin: boolean; push: boolean; pull: boolean };

export interface StandInRepo {
  owner: string;
  name: string;
  private: boolean;
  default_branch: string;
  has_issues: boolean;
  /** Per login: what that account may do. An account not listed cannot see the repository (404). */
  access: Record<string, Permissions>;
  branches: string[];
  /** path → content, on every branch alike. */
  files: Map<string, string>;
  runs: { id: number; name: string; head_branch: string; status: string; conclusion: string | null }[];
  issues: { number: number; title: string; body: string; labels: string[] }[];
  dispatches: { workflow: string; ref: string; inputs?: Record<string, string> }[];
  /** The default branch's history, newest first: each commit's message, time and changed files (`parents` 2 for a merge). */
  commits: StandInCommit[];
}

export interface StandInCommit {
  sha: string;
  message: string;
  date: string;
  files: string[];
  parents?: number;
}

export const READ: Permissions = { admin: false, push: false, pull: true };
export const WRITE: Permissions = { admin: false, push: true, pull: true };

/**
 * A stand-in of the code host's REST API (GitHub's shapes) on loopback: the few routes Baton uses,
 * with tokens, per-account permissions, Link-header pagination and rate-limit answers a test
 * schedules. Every request is recorded, so a test can say that no write was sent.
 */
export class CodehostStandIn {
  readonly requests: StandInRequest[] = [];
  readonly tokens = new Map<string, string>();
  readonly repos = new Map<string, StandInRepo>();
  private limited: { status: number; headers: Record<string, string> }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<CodehostStandIn> {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const standIn = new CodehostStandIn(server, `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v3`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      standIn.answer(req, res).catch((error: Error) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: error.message }));
      });
    });
    return standIn;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  /** A repository `owner/name`; `access` says what each login may do there. */
  addRepo(fullName: string, access: Record<string, Permissions>, extra: Partial<StandInRepo> = {}): StandInRepo {
    const [owner, name] = fullName.split('/');
    const repo: StandInRepo = {
      owner,
      name,
      private: true,
      default_branch: 'main',
      has_issues: true,
      access,
      branches: ['main'],
      files: new Map(),
      runs: [],
      issues: [],
      dispatches: [],
      commits: [],
      ...extra,
    };
    this.repos.set(fullName.toLowerCase(), repo);
    return repo;
  }

  /** The next `count` requests are answered with a rate-limit refusal carrying `headers`. */
  rateLimitNext(count: number, status: number, headers: Record<string, string>): void {
    for (let i = 0; i < count; i++) this.limited.push({ status, headers });
  }

  /** Requests that would have changed something at the code host. */
  writes(): StandInRequest[] {
    return this.requests.filter((r) => r.method !== 'GET');
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const token = /^(?:Bearer|token) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const path = url.pathname.replace(/^\/api\/v3/, '');
    this.requests.push({ method: req.method ?? 'GET', path, query: url.searchParams, token, body: raw ? JSON.parse(raw) : undefined });
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    const limit = this.limited.shift();
    if (limit) return send(limit.status, { message: 'API rate limit exceeded' }, limit.headers);
    const login = token ? this.tokens.get(token) : undefined;
    if (!login) return send(401, { message: 'Bad credentials' });
    if (path === '/user') return send(200, { login, id: 1 });
    if (path === '/user/repos')
      return this.page(
        res,
        url,
        [...this.repos.values()].filter((r) => r.access[login]).map((r) => this.repoJson(r, login)),
      );
    const match = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
    const repo = match ? this.repos.get(`${decodeURIComponent(match[1])}/${decodeURIComponent(match[2])}`.toLowerCase()) : undefined;
    if (!match || !repo || !repo.access[login]) return send(404, { message: 'Not Found' });
    return this.repoRoute(repo, login, req.method ?? 'GET', match[3] ?? '', url, raw ? JSON.parse(raw) : undefined, send, res);
  }

  private repoRoute(repo: StandInRepo, login: string, method: string, rest: string, url: URL, body: any, send: (s: number, b?: unknown) => void, res: ServerResponse): void {
    const canPush = repo.access[login].push;
    if (method === 'GET' && rest === '') return send(200, this.repoJson(repo, login));
    if (method === 'GET' && rest === '/branches')
      return this.page(
        res,
        url,
        repo.branches.map((name) => ({ name, protected: false, commit: { sha: sha(name) } })),
      );
    if (method === 'GET' && rest === '/actions/runs') {
      const runs = repo.runs.filter((r) => !url.searchParams.get('branch') || r.head_branch === url.searchParams.get('branch'));
      return send(200, { total_count: runs.length, workflow_runs: runs.slice(0, Number(url.searchParams.get('per_page') ?? 30)) });
    }
    if (method === 'GET' && rest === '/commits')
      return this.page(
        res,
        url,
        repo.commits.map((c) => commitJson(c)),
      );
    const commit = /^\/commits\/([^/]+)$/.exec(rest);
    if (method === 'GET' && commit) {
      const found = repo.commits.find((c) => c.sha === decodeURIComponent(commit[1]));
      return found ? send(200, { ...commitJson(found), files: found.files.map((filename) => ({ filename, status: 'modified' })) }) : send(404, { message: 'No commit found' });
    }
    const file = /^\/contents\/(.+)$/.exec(rest);
    if (file) {
      const path = file[1].split('/').map(decodeURIComponent).join('/');
      const content = repo.files.get(path);
      if (method === 'GET') {
        if (content === undefined) return send(404, { message: 'Not Found' });
        return send(200, { type: 'file', path, sha: sha(content), size: content.length, encoding: 'base64', content: Buffer.from(content).toString('base64') });
      }
      if (method === 'PUT') {
        if (!canPush) return send(403, { message: 'Resource not accessible by integration' });
        if (content !== undefined && body.sha !== sha(content)) return send(409, { message: `${path} does not match ${body.sha}` });
        const next = Buffer.from(body.content, 'base64').toString('utf8');
        repo.files.set(path, next);
        return send(content === undefined ? 201 : 200, { content: { path, sha: sha(next) }, commit: { sha: sha(`${path}:${next}`) } });
      }
    }
    const dispatch = /^\/actions\/workflows\/([^/]+)\/dispatches$/.exec(rest);
    if (dispatch && method === 'POST') {
      if (!canPush) return send(403, { message: 'Must have admin rights to Repository.' });
      repo.dispatches.push({ workflow: decodeURIComponent(dispatch[1]), ref: body.ref, inputs: body.inputs });
      return send(204);
    }
    if (rest === '/issues' && method === 'POST') {
      const issue = { number: repo.issues.length + 1, title: body.title, body: body.body, labels: body.labels ?? [] };
      repo.issues.push(issue);
      return send(201, { ...issue, html_url: `https://codehost.example/${repo.owner}/${repo.name}/issues/${issue.number}` });
    }
    return send(404, { message: 'Not Found' });
  }

  private repoJson(repo: StandInRepo, login: string) {
    return {
      full_name: `${repo.owner}/${repo.name}`,
      name: repo.name,
      owner: { login: repo.owner, avatar_url: `https://avatars.example/${repo.owner}.png` },
      private: repo.private,
      default_branch: repo.default_branch,
      has_issues: repo.has_issues,
      permissions: repo.access[login],
    };
  }

  /** GitHub's pagination: `per_page` (default 30) and `page`, with a Link header naming the next and last pages. */
  private page(res: ServerResponse, url: URL, items: unknown[]): void {
    const perPage = Number(url.searchParams.get('per_page') ?? 30);
    const page = Number(url.searchParams.get('page') ?? 1);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (page < last) {
      const next = new URL(url.toString().replace('http://stand-in', this.url.replace(/\/api\/v3$/, '')));
      next.searchParams.set('page', String(page + 1));
      const lastUrl = new URL(next);
      lastUrl.searchParams.set('page', String(last));
      headers.link = `<${next}>; rel="next", <${lastUrl}>; rel="last"`;
    }
    res.writeHead(200, headers);
    res.end(JSON.stringify(items.slice((page - 1) * perPage, page * perPage)));
  }
}

/** A commit as the list answers it (no files: those come with the commit's own route). */
function commitJson(c: StandInCommit) {
  return {
    sha: c.sha,
    commit: { message: c.message, author: { date: c.date }, committer: { date: c.date } },
    parents: Array.from({ length: c.parents ?? 1 }, (_, i) => ({ sha: `${c.sha}-parent-${i}` })),
  };
}

function sha(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
