import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DomainEvents } from '../src/common/events/domain-events';
import { ContextSections } from '../src/common/extensions/context-sections';
import { HandoffHooks } from '../src/common/extensions/handoff-hooks';
import { StartSessionExtras } from '../src/common/extensions/start-session-extras';
import { Handoff } from '../src/modules/handoff/handoff.entity';
import { parseFrontMatter } from '../src/modules/handoff/front-matter.util';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { BAD_IDS, Refusals, WRONG_REQUIRED, WRONG_TYPES } from './support/bad-input';
import { callTool, connectMcp } from './support/mcp-client';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';

const BUDGETS: Record<string, number> = { goal: 12_000, starter: 24_000, delta: 48_000, planner: 100_000, full: 300_000 };

/** Board lines per project, read by a section the test registers. */
const board = new Map<string, string[]>();
/** What the handoff hooks were given, per project. */
const hookCalls = new Map<string, string[][]>();
const corrected: Record<string, unknown>[] = [];

/** A git repository whose last three commits change b, c and d (the first commit, a, is older). */
function makeRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'baton-repo-'));
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=Baton Test', '-c', 'user.email=test@baton.invalid', ...args], { stdio: 'pipe' });
  git('init', '-q');
  for (const file of ['src/a.ts', 'src/login.controller.ts', 'docs/c.md', 'src/d.ts']) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), `// ${file}\n`);
    git('add', file);
    git('commit', '-q', '-m', `add ${file}`);
  }
  return dir;
}

describe.each(eachBackend())('handoffs on %s', (_name, backend) => {
  let run: RunningBackend;
  let hosted: boolean;
  const repos: string[] = [];

  beforeAll(async () => {
    // The bad-input test alone makes some eighty tool calls: the hosted per-token MCP rate limit is raised for this suite.
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
    hosted = run.testApp.config.isHosted;
    const app = run.testApp.app;
    app.get(ContextSections).register('handoff_test_board', async (_m, projectId) => {
      const lines = board.get(projectId);
      return lines ? { key: 'handoff_test_board', title: 'Test board', order: 35, lines } : null;
    });
    app.get(HandoffHooks).register('handoff_test_hook', async (_m, input) => {
      hookCalls.set(input.projectId, [...(hookCalls.get(input.projectId) ?? []), input.changedFiles]);
    });
    app.get(StartSessionExtras).register('handoff_test_extra', async (_m, input) => ({ for_session: input.sessionId ?? null }));
    app.get(DomainEvents).on('handoff.corrected', (payload) => void corrected.push(payload));
  });
  afterAll(async () => {
    await run?.stop();
    repos.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  const newProject = async () => (await run.http.post('/projects', { name: `Handoff ${randomUUID().slice(0, 8)}` })).body.id as string;
  const handoff = async (projectId: string, body: Record<string, unknown> = {}) => {
    const res = await run.http.post(`/projects/${projectId}/handoff`, body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const accept = async (projectId: string, body: Record<string, unknown>) => {
    const res = await run.http.post(`/projects/${projectId}/handoff/accept`, body);
    expect(res.status).toBe(200);
    return res.body;
  };

  test('generate_handoff answers {file_path, content}: front matter first, extras in it; the file is written only when self-hosted', async () => {
    const id = await newProject();
    board.set(id, ['ship the importer']);
    const s = (await run.http.post(`/projects/${id}/start-session`, { name: 'author' })).body;
    await run.http.post(`/sessions/${s.session_id}/notes`, { body: 'the importer needs a retry' });
    const out = await handoff(id, { session_id: s.session_id, summary: 'Importer half done.\nNext: retries.' });
    expect(out.content.startsWith('---\n')).toBe(true);
    const parsed = parseFrontMatter(out.content);
    expect(parsed?.fields).toMatchObject({
      baton_handoff: 1,
      handoff_id: out.handoff_id,
      token: out.token,
      project_id: id,
      mode: 'goal',
      session_id: s.session_id,
      handoff_test_extra: { for_session: s.session_id },
    });
    expect(out.mode).toBe('goal');
    expect(out.bytes).toBe(Buffer.byteLength(out.content, 'utf8'));
    expect(parsed?.body).toContain('## Summary from author\nImporter half done.\nNext: retries.\n');
    expect(parsed?.body).toContain('- ship the importer');
    expect(parsed?.body).toContain('the importer needs a retry');
    if (hosted) {
      expect(out.file_path).toMatch(/^\.baton\/handoffs\/[\w.-]+-goal-[0-9a-f]{8}\.md$/);
      expect(out.file_path).not.toContain(run.testApp.config.dataDir);
      expect(existsSync(join(run.testApp.config.dataDir, 'handoffs'))).toBe(false);
    } else {
      expect(out.file_path.startsWith(join(run.testApp.config.dataDir, 'handoffs', id))).toBe(true);
      expect(readFileSync(out.file_path, 'utf8')).toBe(out.content);
    }
    // The next handoff of the project defaults to delta, names the earlier one's time and what happened since.
    const later = (await run.http.post(`/projects/${id}/start-session`, { name: 'latecomer' })).body;
    await run.http.post(`/sessions/${later.session_id}/close`);
    const next = await handoff(id);
    expect(next.mode).toBe('delta');
    expect(parseFrontMatter(next.content)?.fields.since).toBe(parsed?.fields.generated_at);
    expect(next.content).toContain('## Sessions since the previous handoff');
    expect(next.content).toMatch(/- \S+ latecomer closed\n/);
    expect(next.content).toMatch(/- \S+ latecomer \(interactive, ada\) started\n/);
    expect(next.content).not.toMatch(/author \(interactive, ada\) started/);
  });

  test('every mode stays within its byte budget, even with 10,000 board lines', async () => {
    const id = await newProject();
    board.set(
      id,
      Array.from({ length: 10_000 }, (_, i) => `[todo] item ${10_000 - i}: ${'detail '.repeat(20)}`),
    );
    const sizes: Record<string, number> = {};
    for (const mode of Object.keys(BUDGETS)) {
      const out = await handoff(id, { mode });
      expect(out.mode).toBe(mode);
      expect(out.budget_bytes).toBe(BUDGETS[mode]);
      expect(out.bytes).toBeLessThanOrEqual(BUDGETS[mode]);
      expect(out.truncated).toBe(true);
      expect(out.content).toContain('- [todo] item 10000: ');
      sizes[mode] = out.bytes;
    }
    expect(sizes.goal).toBeLessThan(sizes.delta);
    expect(sizes.delta).toBeLessThan(sizes.full);
  });

  test('a queued session goal appears in the next handoff once, then is gone', async () => {
    const id = await newProject();
    expect((await run.http.get(`/projects/${id}/queued-session`)).body).toEqual({ queued_goal: null, queued_at: null });
    const first = await run.http.post(`/projects/${id}/queue-session`, { goal: 'Draft the importer' });
    expect(first.body).toMatchObject({ queued_goal: 'Draft the importer', replaced: false });
    const queued = await run.http.post(`/projects/${id}/queue-session`, { goal: 'Wire retries into the importer' });
    expect(queued.status).toBe(200);
    expect(queued.body).toMatchObject({ queued_goal: 'Wire retries into the importer', replaced: true });
    expect((await run.http.get(`/projects/${id}/queued-session`)).body.queued_goal).toBe('Wire retries into the importer');

    // A planner preview shows the project but does not take the goal.
    const preview = await run.http.get(`/projects/${id}/handoff/planner`);
    expect(preview.body.content).not.toContain('Wire retries into the importer');

    const carrying = await handoff(id, { mode: 'goal' });
    expect(carrying.queued_goal_included).toBe(true);
    expect(carrying.content).toContain('## Goal for this session (queued)\nWire retries into the importer\n');
    expect(carrying.content.split('Wire retries into the importer').length - 1).toBe(1);
    expect(parseFrontMatter(carrying.content)?.fields.queued_goal_included).toBe(true);
    expect((await run.http.get(`/projects/${id}/queued-session`)).body).toEqual({ queued_goal: null, queued_at: null });

    const after = await handoff(id, { mode: 'goal' });
    expect(after.queued_goal_included).toBe(false);
    expect(after.content).not.toContain('Wire retries into the importer');

    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await callTool(client, 'queue_session', { project_id: id, goal: 'Through MCP' });
      expect((await callTool(client, 'get_queued_session', { project_id: id })).value.queued_goal).toBe('Through MCP');
      expect((await callTool(client, 'generate_handoff', { project_id: id })).value.content).toContain('Through MCP');
      expect((await callTool(client, 'get_queued_session', { project_id: id })).value.queued_goal).toBeNull();
    } finally {
      await client.close();
    }
  });

  test('accept_handoff answers ok, then each reason a handoff is no longer good, without changing anything', async () => {
    const id = await newProject();
    board.set(id, ['first state']);
    const h = await handoff(id, { mode: 'goal' });
    expect(await accept(id, { handoff_id: h.handoff_id })).toMatchObject({
      status: 'ok',
      valid: true,
      problems: [],
      handoff: { id: h.handoff_id, mode: 'goal', consumed_at: null },
    });
    expect((await accept(id, { token: h.token })).status).toBe('ok');
    expect((await accept(id, { content: h.content })).status).toBe('ok');
    expect((await accept(id, { content: h.content.replace(/\n/g, '\r\n') })).status).toBe('ok');
    expect((await accept(id, { content: h.content.replace('first state', 'forged state') })).status).toBe('body_mismatch');
    expect((await accept(id, { handoff_id: randomUUID() })).status).toBe('not_found');
    expect((await accept(id, { content: 'no front matter here' })).status).toBe('not_found');

    const other = await newProject();
    expect(await accept(other, { handoff_id: h.handoff_id })).toMatchObject({ status: 'wrong_project', valid: false, handoff: null });

    board.set(id, ['second state']);
    expect((await accept(id, { handoff_id: h.handoff_id })).problems.map((p: { code: string }) => p.code)).toEqual(['board_diverged']);
    board.set(id, ['first state']);
    await inTenantDb(run.testApp, run.token, (m) => m.update(Handoff, { id: h.handoff_id }, { tools_sha256: 'f'.repeat(64) }));
    expect((await accept(id, { handoff_id: h.handoff_id })).status).toBe('tools_drifted');

    const newer = await handoff(id, { mode: 'goal' });
    expect((await accept(id, { handoff_id: h.handoff_id })).problems.map((p: { code: string }) => p.code)).toEqual(['stale', 'tools_drifted']);
    await inTenantDb(run.testApp, run.token, (m) => m.update(Handoff, { id: newer.handoff_id }, { expires_at: new Date(Date.now() - 1000) }));
    expect((await accept(id, { handoff_id: newer.handoff_id })).status).toBe('expired');

    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const viaTool = await callTool(client, 'accept_handoff', { project_id: id, handoff_id: h.handoff_id });
      expect(viaTool.value.valid).toBe(false);
    } finally {
      await client.close();
    }
    const refused = await run.http.post(`/projects/${id}/handoff/accept`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/give handoff_id, token or content/);
  });

  test('the stored handoff holds only the hash of its token; accepting and starting with the token still work', async () => {
    const id = await newProject();
    const h = await handoff(id, { mode: 'goal', summary: 'Hashed token' });
    expect(h.content).toContain(h.token);
    const row = await inTenantDb(run.testApp, run.token, (m) => m.findOneByOrFail(Handoff, { id: h.handoff_id }));
    expect(row.token_sha256).toBe(createHash('sha256').update(h.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(h.token);
    expect(row.content).toContain('ho_****************');
    expect((await accept(id, { token: h.token })).status).toBe('ok');
    expect((await accept(id, { content: h.content })).status).toBe('ok');
    // The hash itself is no token.
    expect((await run.http.post(`/projects/${id}/start-session`, { handoff_token: row.token_sha256 })).status).toBe(400);
    const started = await run.http.post(`/projects/${id}/start-session`, { handoff_token: h.token });
    expect(started.status).toBe(201);
    expect(started.body.handoff.content).toBe(h.content);
  });

  test('a handoff token starts one session: the second start is refused and leaves no session behind', async () => {
    const id = await newProject();
    const h = await handoff(id, { mode: 'goal', summary: 'Pick up the importer' });
    const started = await run.http.post(`/projects/${id}/start-worker-session`, { handoff_token: h.token, name: 'picked-up' });
    expect(started.status).toBe(201);
    expect(started.body.handoff).toMatchObject({ id: h.handoff_id, mode: 'goal', content: h.content });
    const acceptAfter = await accept(id, { handoff_id: h.handoff_id });
    expect(acceptAfter.status).toBe('already_consumed');
    expect(acceptAfter.handoff.consumed_by_session_id).toBe(started.body.session_id);

    const active = (await run.http.get(`/projects/${id}/sessions`)).body.length;
    const again = await run.http.post(`/projects/${id}/start-session`, { handoff_token: h.token });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('HANDOFF_ALREADY_CONSUMED');
    expect((await run.http.get(`/projects/${id}/sessions`)).body.length).toBe(active);

    const elsewhere = await handoff(await newProject(), { mode: 'goal' });
    expect((await run.http.post(`/projects/${id}/start-session`, { handoff_token: elsewhere.token })).body.code).toBe('HANDOFF_WRONG_PROJECT');
    expect((await run.http.post(`/projects/${id}/start-session`, { handoff_token: 'ho_aaaaaaaaaaaaaaaa' })).status).toBe(404);
  });

  test('corrections: recorded, announced to the AI log, the latest loaded, carried by the next delta handoff', async () => {
    const id = await newProject();
    const s = (await run.http.post(`/projects/${id}/start-worker-session`, { name: 'blocked-worker' })).body;
    expect((await run.http.get(`/projects/${id}/handoff/corrections/latest`)).body).toEqual({ correction: null });
    await handoff(id, { mode: 'goal' });
    const res = await run.http.post(`/projects/${id}/handoff/corrections`, { session_id: s.session_id, summary: 'Wrong table', content: 'Use imports, not uploads.' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ project_id: id, session_id: s.session_id, summary: 'Wrong table', content: 'Use imports, not uploads.' });
    expect(corrected).toContainEqual({ project_id: id, session_id: s.session_id, correction_id: res.body.id, summary: 'Wrong table' });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const second = await callTool(client, 'record_handoff_correction', { project_id: id, summary: 'Also', content: 'Keep the old API.' });
      expect((await run.http.get(`/projects/${id}/handoff/corrections/latest`)).body.correction.id).toBe(second.value.id);
      expect((await run.http.get(`/projects/${id}/handoff/corrections/latest?session_id=${s.session_id}`)).body.correction.id).toBe(res.body.id);
      expect((await callTool(client, 'get_latest_handoff_correction', { project_id: id })).value.correction.summary).toBe('Also');
    } finally {
      await client.close();
    }
    const delta = await handoff(id);
    expect(delta.mode).toBe('delta');
    expect(delta.content).toContain('## Corrections');
    expect(delta.content).toContain('Wrong table — Use imports, not uploads.');
    const stranger = (await run.http.post(`/projects/${await newProject()}/start-session`, {})).body;
    const refused = await run.http.post(`/projects/${id}/handoff/corrections`, { session_id: stranger.session_id, summary: 'x', content: 'y' });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('SESSION_NOT_IN_PROJECT');
  });

  test('GET handoff/planner is a preview: planner front matter, sections, locks; nothing recorded', async () => {
    const id = await newProject();
    board.set(id, ['plan the importer']);
    const s = (await run.http.post(`/projects/${id}/start-session`, { name: 'planner-watch' })).body;
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await callTool(client, 'claim_file', { file_path: 'src/import.ts', session_id: s.session_id });
      const res = await run.http.get(`/projects/${id}/handoff/planner`);
      expect(res.status).toBe(200);
      expect(res.body.mode).toBe('planner');
      expect(parseFrontMatter(res.body.content)?.fields).toMatchObject({ mode: 'planner', handoff_id: null, token: null, project_id: id });
      expect(res.body.content).toContain('- plan the importer');
      expect(res.body.content).toContain('src/import.ts is locked by session planner-watch');
      expect((await callTool(client, 'get_planner_handoff', { project_id: id })).value.mode).toBe('planner');
    } finally {
      await client.close();
    }
    // Nothing was recorded: the first generated handoff is still a goal handoff.
    expect((await handoff(id)).mode).toBe('goal');
  });

  test('handoff hooks get the files of the last three commits when the project names a repository (self-hosted), otherwise none', async () => {
    const id = await newProject();
    await handoff(id, { mode: 'goal' });
    expect(hookCalls.get(id)).toEqual([[]]);

    const repo = makeRepository();
    repos.push(repo);
    const item = await run.http.post(`/projects/${id}/sprint-items`, { title: 'Fix login redirect', version: 'v1' });
    expect(item.status).toBe(201);
    expect((await run.http.patch(`/projects/${id}/settings`, { executor_config: { repo_path: repo } })).status).toBe(200);
    const out = await handoff(id, { mode: 'full' });
    const touched = (await run.http.get(`/projects/${id}/sprint-items/${item.body.id}`)).body.touches_files;
    if (hosted) {
      expect(out.changed_files).toEqual([]);
      expect(hookCalls.get(id)?.[1]).toEqual([]);
      expect(touched).toEqual([]);
    } else {
      expect(out.changed_files).toEqual(['docs/c.md', 'src/d.ts', 'src/login.controller.ts']);
      expect(hookCalls.get(id)?.[1]).toEqual(['docs/c.md', 'src/d.ts', 'src/login.controller.ts']);
      expect(out.content).toContain('## Files changed in the last three commits');
      expect(touched).toEqual(['src/login.controller.ts']);
      // A path that is not a repository: the handoff says so and still comes.
      const plain = mkdtempSync(join(tmpdir(), 'baton-plain-'));
      repos.push(plain);
      expect((await run.http.patch(`/projects/${id}/settings`, { executor_config: { repo_path: plain } })).status).toBe(200);
      const broken = await handoff(id, { mode: 'full' });
      expect(broken.changed_files).toEqual([]);
      expect(broken.content).toContain('could not read recent commits of');
    }
  });

  test('bad input to every handoff route and tool: 4xx with detail, never 5xx, nothing queued or recorded', async () => {
    const id = await newProject();
    const refusals = new Refusals();
    const bodies: [string, Record<string, unknown>[]][] = [
      [
        'handoff',
        [
          ...WRONG_TYPES.flatMap((v) => [{ mode: v }, { session_id: v }, { summary: v }]),
          { mode: 'everything' },
          { summary: '' },
          { summary: 'x'.repeat(20_001) },
          { session_id: randomUUID() },
          { notes: 'x' },
        ],
      ],
      [
        'handoff/accept',
        [
          ...WRONG_TYPES.flatMap((v) => [{ handoff_id: v }, { token: v }, { content: v }]),
          { token: 'ho_short' },
          { handoff_id: 'x' },
          { content: 'x'.repeat(320_001) },
          { id: randomUUID() },
        ],
      ],
      [
        'handoff/corrections',
        [
          ...WRONG_REQUIRED.flatMap((v) => [
            { summary: v, content: 'c' },
            { summary: 's', content: v },
          ]),
          { summary: 's' },
          { content: 'c' },
          { summary: 'two\nlines', content: 'c' },
          { summary: 's', content: 'c', session_id: 'x' },
          { summary: 's', content: 'c', session_id: randomUUID() },
        ],
      ],
      ['queue-session', [...WRONG_REQUIRED.map((v) => ({ goal: v })), {}, { goal: '' }, { goal: ' \n ' }, { goal: 'x'.repeat(4001) }, { goal: 'ok', when: 'now' }]],
    ];
    for (const [path, list] of bodies) {
      for (const body of list) refusals.http(await run.http.post(`/projects/${id}/${path}`, body), `${path} ${JSON.stringify(body).slice(0, 60)}`);
      for (const raw of ['{', '[]', '"x"', 'null']) refusals.http(await run.http.send('POST', `/projects/${id}/${path}`, raw), `${path} raw ${raw}`);
      for (const bad of BAD_IDS) refusals.http(await run.http.post(`/projects/${encodeURIComponent(bad)}/${path}`, {}), `${path} id ${bad}`);
      refusals.http(
        await run.http.post(
          `/projects/${randomUUID()}/${path}`,
          path === 'queue-session' ? { goal: 'g' } : path === 'handoff/corrections' ? { summary: 's', content: 'c' } : { handoff_id: randomUUID() },
        ),
        `${path} unknown project`,
      );
    }
    for (const path of ['handoff/corrections/latest', 'handoff/planner', 'queued-session']) {
      for (const bad of BAD_IDS) refusals.http(await run.http.get(`/projects/${encodeURIComponent(bad)}/${path}`), `${path} id ${bad}`);
      refusals.http(await run.http.get(`/projects/${randomUUID()}/${path}`), `${path} unknown project`);
    }
    refusals.http(await run.http.get(`/projects/${id}/handoff/corrections/latest?session_id=x`), 'latest session_id=x');

    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const calls: [string, Record<string, unknown>][] = [
        ...[
          'generate_handoff',
          'accept_handoff',
          'record_handoff_correction',
          'get_latest_handoff_correction',
          'get_planner_handoff',
          'queue_session',
          'get_queued_session',
        ].flatMap((tool): [string, Record<string, unknown>][] => [
          [tool, {}],
          [tool, { project_id: 'nope' }],
          ...WRONG_REQUIRED.map((v): [string, Record<string, unknown>] => [tool, { project_id: v }]),
        ]),
        ['generate_handoff', { project_id: id, mode: 'all' }],
        ['generate_handoff', { project_id: randomUUID() }],
        ['accept_handoff', { project_id: id }],
        ['accept_handoff', { project_id: id, token: 7 }],
        ['record_handoff_correction', { project_id: id, summary: 's' }],
        ['queue_session', { project_id: id, goal: '' }],
        ['get_latest_handoff_correction', { project_id: id, session_id: 5 }],
      ];
      for (const [name, args] of calls) {
        const result = await callTool(client, name, args);
        refusals.tool(result, `${name} ${JSON.stringify(args).slice(0, 80)}`);
      }
    } finally {
      await client.close();
    }
    expect(refusals.failures).toEqual([]);
    expect((await run.http.get(`/projects/${id}/queued-session`)).body.queued_goal).toBeNull();
    expect((await run.http.get(`/projects/${id}/handoff/corrections/latest`)).body.correction).toBeNull();
    expect((await handoff(id)).mode).toBe('goal');
  });
});

describe.each(hostedBackend())('handoffs across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's project ids answer 404; its handoffs and tokens are not found", async () => {
    const other = await tenantClient(run.testApp, 'other-team');
    const intruder = other.http;
    const id = (await run.http.post('/projects', { name: 'Owned' })).body.id;
    await run.http.post(`/projects/${id}/queue-session`, { goal: 'secret next step' });
    const h = (await run.http.post(`/projects/${id}/handoff`, { mode: 'goal' })).body;
    for (const [method, path, body] of [
      ['POST', 'handoff', {}],
      ['POST', 'handoff/accept', { handoff_id: h.handoff_id }],
      ['POST', 'handoff/corrections', { summary: 's', content: 'c' }],
      ['GET', 'handoff/corrections/latest', undefined],
      ['GET', 'handoff/planner', undefined],
      ['POST', 'queue-session', { goal: 'hijack' }],
      ['GET', 'queued-session', undefined],
    ] as const) {
      const res = await intruder.send(method, `/projects/${id}/${path}`, body);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    const theirs = (await intruder.post('/projects', { name: 'Theirs' })).body.id;
    expect((await intruder.post(`/projects/${theirs}/handoff/accept`, { handoff_id: h.handoff_id })).body.status).toBe('not_found');
    expect((await intruder.post(`/projects/${theirs}/handoff/accept`, { content: h.content })).body.status).toBe('not_found');
    expect((await intruder.post(`/projects/${theirs}/start-session`, { handoff_token: h.token })).status).toBe(404);
    const client = await connectMcp(run.testApp.url, other.token);
    try {
      expect((await callTool(client, 'generate_handoff', { project_id: id })).structured?.code).toBe('PROJECT_NOT_FOUND');
      expect((await callTool(client, 'get_queued_session', { project_id: id })).structured?.code).toBe('PROJECT_NOT_FOUND');
    } finally {
      await client.close();
    }
    // The owner's handoff is untouched: still valid and not consumed.
    expect((await run.http.post(`/projects/${id}/handoff/accept`, { handoff_id: h.handoff_id })).body.status).toBe('ok');
  });
});
