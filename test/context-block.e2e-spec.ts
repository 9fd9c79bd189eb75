import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { ContextSections } from '../src/common/extensions/context-sections';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { BAD_IDS, Refusals, WRONG_TYPES } from './support/bad-input';
import { callTool, connectMcp } from './support/mcp-client';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';

const DEFAULT_CAP = 8192;

/** Lines of the test's own sections, per project: set by each test, read by the providers registered below. */
const head = new Map<string, string[]>();
const middle = new Map<string, string[]>();
const tail = new Map<string, string[]>();

function registerTestSections(sections: ContextSections) {
  const provider = (key: string, title: string, order: number, store: Map<string, string[]>) =>
    sections.register(key, async (_m, projectId) => {
      const lines = store.get(projectId);
      return lines ? { key, title, order, lines } : null;
    });
  provider('test_head', 'Test head', 1, head);
  provider('test_middle', 'Test middle', 45, middle);
  provider('test_tail', 'Test tail', 99, tail);
}

describe.each(eachBackend())('context block on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    registerTestSections(run.testApp.app.get(ContextSections));
  });
  afterAll(async () => {
    await run?.stop();
  });

  const newProject = async (name = `Context ${randomUUID().slice(0, 8)}`) => (await run.http.post('/projects', { name })).body.id as string;
  const block = async (projectId: string, query = '') => {
    const res = await run.http.get(`/projects/${projectId}/context-block${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    return res.text;
  };

  test('a project with nothing recorded gets its title and a sentence saying so', async () => {
    const id = await newProject('Empty Context');
    expect(await block(id)).toBe('# Baton context: Empty Context\n\nNothing is recorded for this project yet: no goal, sprint items, tasks, decisions or active sessions.\n');
  });

  test('sections come in their order, active sessions after the others, with the files each session holds', async () => {
    const id = await newProject();
    head.set(id, ['head line']);
    middle.set(id, ['middle line']);
    tail.set(id, ['tail line']);
    const s = (await run.http.post(`/projects/${id}/start-session`, { name: 'worker-one' })).body;
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await callTool(client, 'claim_file', { file_path: 'src/a.ts', session_id: s.session_id });
    } finally {
      await client.close();
    }
    const text = await block(id);
    const order = ['## Test head', '## Test middle', '## Active sessions', '## Test tail'].map((t) => text.indexOf(t));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain(`- worker-one (interactive, ada, session ${s.session_id}), last seen `);
    expect(text).toContain('; holds src/a.ts');
  });

  test('identical state gives identical bytes, over REST and MCP; the MCP text is wrapped in a tag naming the project and mode', async () => {
    const id = await newProject('Quote "this" <here>');
    head.set(id, ['alpha', 'beta']);
    await run.http.post(`/projects/${id}/start-session`, { name: 'steady' });
    const first = await block(id);
    const second = await block(id);
    expect(second).toBe(first);
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const result = (await client.callTool({ name: 'get_context_block', arguments: { project_id: id } })) as { content: { text: string }[]; isError?: boolean };
      expect(result.isError).toBeFalsy();
      expect(result.content[0].text).toBe(`<baton-context project="Quote &quot;this&quot; &lt;here&gt;" mode="full">\n${first}</baton-context>\n`);
      const brief = (await client.callTool({ name: 'get_context_block', arguments: { project_id: id, mode: 'brief' } })) as { content: { text: string }[] };
      expect(brief.content[0].text.startsWith('<baton-context project="Quote &quot;this&quot; &lt;here&gt;" mode="brief">\n')).toBe(true);
    } finally {
      await client.close();
    }
  });

  test('with 10,000 lines in one section the block stays under its cap and every section keeps its newest lines', async () => {
    const id = await newProject();
    head.set(id, ['decision one', 'decision two', 'decision three']);
    middle.set(
      id,
      Array.from({ length: 10_000 }, (_, i) => `[done] task ${10_000 - i}: ${'work '.repeat(12)}`),
    );
    tail.set(id, ['last word']);
    const text = await block(id);
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(DEFAULT_CAP);
    expect(text).toContain('- decision three\n');
    expect(text).toContain('- last word\n');
    expect(text).toContain('- [done] task 10000: ');
    expect(text).not.toContain('- [done] task 1: ');
    expect(text).toMatch(/- … \d+ more not shown\n/);
    expect(await block(id)).toBe(text);

    const onboarding = await run.http.get(`/projects/${id}/context`);
    const middleSection = onboarding.body.sections.find((s: { key: string }) => s.key === 'test_middle');
    expect(middleSection.total).toBe(10_000);
    expect(middleSection.omitted).toBe(10_000 - middleSection.lines.length);
    expect(onboarding.body).toMatchObject({ truncated: true, cap_bytes: DEFAULT_CAP, context_block: text });
    expect(onboarding.body.bytes).toBe(Buffer.byteLength(text, 'utf8'));
  });

  test('brief mode: at most three lines per section, under 2 KiB', async () => {
    const id = await newProject();
    head.set(id, ['1', '2', '3', '4', '5']);
    const text = await block(id, '?mode=brief');
    expect(text).toContain('- 3\n- … 2 more not shown\n');
    expect(text).not.toContain('- 4\n');
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(2048);
  });

  test('brief mode keeps the goal whole; failed items and open questions show with what a session needs', async () => {
    const id = await newProject();
    const goal = ['Ship the importer:', '1. parse CSV', '2. validate rows', '3. write batches', '4. report errors', 'Done when the sample files import.'].join('\n');
    expect((await run.http.post(`/projects/${id}/goal`, { content: goal })).status).toBe(200);
    const session = (await run.http.post('/sessions/register', { project_id: id, name: 'asker' })).body.id;
    const item = (await run.http.post(`/projects/${id}/sprint-items`, { title: 'Parse quoted fields', version: 'v1' })).body;
    await run.http.post(`/projects/${id}/sprint-items/${item.id}/fail`, { reason: 'the sample file is not UTF-8' });
    const question = (await run.http.post(`/projects/${id}/hitl`, { question: 'Accept Latin-1 files too?', session_id: session, urgency: 'high' })).body;
    const brief = await block(id, '?mode=brief');
    for (const line of goal.split('\n')) expect(brief).toContain(line);
    const full = await block(id);
    expect(full).toContain(`- [failed] Parse quoted fields (normal, ${item.slug}): Failed: the sample file is not UTF-8\n`);
    expect(full).toContain(`- [high] Accept Latin-1 files too? (${question.id}, asked ${question.created_at})\n`);
    // Answered, the question leaves the block.
    expect((await run.http.patch(`/hitl/${question.id}`, { answer: 'yes' })).status).toBe(200);
    expect(await block(id)).not.toContain('Accept Latin-1 files too?');
  });

  test('one very long line is cut, and line breaks and control characters never reach the block', async () => {
    const id = await newProject();
    head.set(id, [`${'y'.repeat(1000)}`, 'two\nlines\u0007 and a bell']);
    const text = await block(id);
    expect(text).toContain(`- ${'y'.repeat(299)}…\n`);
    expect(text).toContain('- two lines and a bell\n');
  });

  test('GET /context is the onboarding payload: project, sections, sessions, locks, the block and what to do first', async () => {
    const id = await newProject('Onboarding');
    tail.set(id, ['see the README']);
    const s = (await run.http.post(`/projects/${id}/start-session`, { name: 'guide' })).body;
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await callTool(client, 'claim_file', { file_path: 'docs/x.md', session_id: s.session_id });
      const res = await run.http.get(`/projects/${id}/context`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        project: { id, name: 'Onboarding' },
        mode: 'full',
        truncated: false,
        active_sessions: [expect.objectContaining({ id: s.session_id, name: 'guide' })],
        file_locks: [expect.objectContaining({ file_path: 'docs/x.md', session_id: s.session_id })],
      });
      expect(res.body.sections.map((x: { key: string }) => x.key)).toEqual(['sessions', 'test_tail']);
      expect(res.body.context_block).toBe(await block(id));
      expect(res.body.next_steps.join(' ')).toContain('start_session');
      const tool = await callTool(client, 'get_project_context', { project_id: id });
      expect(tool.value.context_block).toBe(res.body.context_block);
    } finally {
      await client.close();
    }
  });

  test('bad input to the context routes and tools: 4xx with detail, never 5xx', async () => {
    const id = await newProject();
    const refusals = new Refusals();
    for (const path of ['context', 'context-block']) {
      for (const q of ['mode=bogus', 'mode=', 'mode[]=full', 'mode=FULL', 'colour=red', 'mode=full&x=1'])
        refusals.http(await run.http.get(`/projects/${id}/${path}?${q}`), `${path}?${q}`);
      for (const bad of BAD_IDS) refusals.http(await run.http.get(`/projects/${encodeURIComponent(bad)}/${path}`), `${path} id ${bad}`);
      refusals.http(await run.http.get(`/projects/${randomUUID()}/${path}`), `${path} unknown project`);
      refusals.http(await run.http.post(`/projects/${id}/${path}`, {}), `POST ${path}`);
    }
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      for (const tool of ['get_context_block', 'get_project_context']) {
        const calls: Record<string, unknown>[] = [
          {},
          { project_id: randomUUID() },
          ...WRONG_TYPES.map((v) => ({ project_id: v })),
          ...BAD_IDS.map((v) => ({ project_id: v })),
          ...WRONG_TYPES.map((v) => ({ project_id: id, mode: v })),
          { project_id: id, mode: 'verbose' },
          { project_id: id, colour: 'red' },
        ];
        for (const args of calls) {
          const result = await callTool(client, tool, args);
          refusals.tool(result, `${tool} ${JSON.stringify(args)}`);
        }
      }
    } finally {
      await client.close();
    }
    expect(refusals.failures).toEqual([]);
  });
});

/** Inserts `count` done tasks in a few statements (the task log of a long-lived project), newest last. */
async function insertTasks(m: EntityManager, postgres: boolean, projectId: string, count: number) {
  const start = Date.now() - count * 1000;
  // SQLite numbers tasks itself (seq is unique across the table); Postgres has an identity column.
  const base = postgres ? 0 : Number((await m.query('SELECT COALESCE(MAX(seq), 0) AS top FROM tasks'))[0].top);
  for (let from = 0; from < count; from += 500) {
    const rows = Array.from({ length: Math.min(500, count - from) }, (_, k) => from + k);
    const params: unknown[] = [];
    const values = rows.map((i) => {
      const at = new Date(start + i * 1000);
      const stamp = postgres ? at : at.toISOString().replace('T', ' ').replace('Z', '');
      params.push(randomUUID(), projectId, `task number ${i + 1}: ${'refactor '.repeat(8)}`, stamp, stamp);
      const n = params.length;
      const place = (k: number) => (postgres ? `$${n - 5 + k}` : '?');
      return `(${place(1)}, ${place(2)}, NULL, ${place(3)}, 'done', 'log', NULL, NULL, ${place(4)}, ${place(5)}${postgres ? '' : `, ${base + i + 1}`})`;
    });
    await m.query(
      `INSERT INTO tasks (id, project_id, session_id, description, status, source, claimed_by, claimed_at, created_at, updated_at${postgres ? '' : ', seq'}) VALUES ${values.join(', ')}`,
      params,
    );
  }
}

describe.each(eachBackend())("context block from Baton's own sections on %s", (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('workspace notes and decisions come first, then goal, sprint items, tasks, pinned decisions, active sessions; identical state, identical bytes', async () => {
    const id = (await run.http.post('/projects', { name: 'Layered' })).body.id;
    expect((await run.http.post('/workspace/notes', { title: 'Release train', body: 'ships on Thursdays' })).status).toBeLessThan(300);
    expect((await run.http.post('/workspace/decisions', { title: 'TypeScript strict everywhere' })).status).toBeLessThan(300);
    expect((await run.http.post(`/projects/${id}/goal`, { content: 'Ship the importer', north_star: 'Every project imports in one click' })).status).toBeLessThan(300);
    expect((await run.http.post(`/projects/${id}/sprint-items`, { title: 'Importer retries', version: 'v1' })).status).toBeLessThan(300);
    expect((await run.http.post(`/projects/${id}/decisions-pinned`, { title: 'Imports are idempotent' })).status).toBeLessThan(300);
    const s = (await run.http.post(`/projects/${id}/start-session`, { name: 'layer-check' })).body;
    expect((await run.http.post('/tasks', { session_id: s.session_id, project_id: id, description: 'wrote the parser', status: 'done' })).status).toBeLessThan(300);

    const text = (await run.http.get(`/projects/${id}/context-block`)).text;
    const titles = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(titles[0]).toBe('Workspace');
    expect(titles.indexOf('Goal')).toBeGreaterThan(0);
    expect(titles.indexOf('Active sessions')).toBe(titles.length - 1);
    expect(text).toContain('Release train');
    expect(text).toContain('TypeScript strict everywhere');
    expect(text).toContain('Ship the importer');
    expect(text).toContain('Importer retries');
    expect(text).toContain('wrote the parser');
    expect(text).toContain('Imports are idempotent');
    expect(text).not.toMatch(/^- - /m);
    expect((await run.http.get(`/projects/${id}/context-block`)).text).toBe(text);
    expect((await run.http.get(`/projects/${id}/context`)).body.context_block).toBe(text);
  });

  test('with 10,000 tasks in the project the block stays under its cap and shows the newest tasks', async () => {
    const id = (await run.http.post('/projects', { name: 'Long Log' })).body.id;
    await run.http.post(`/projects/${id}/goal`, { content: 'Keep going' });
    await inTenantDb(run.testApp, run.token, (m) => insertTasks(m, run.testApp.config.databaseType === 'postgres', id, 10_000));
    expect((await run.http.get(`/projects/${id}/tasks?limit=1`)).body[0].description).toMatch(/^task number 10000:/);
    const text = (await run.http.get(`/projects/${id}/context-block`)).text;
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(DEFAULT_CAP);
    expect(text).toContain('task number 10000:');
    expect(text).not.toContain('task number 1: ');
    expect(text).toContain('Keep going');
    expect(text.indexOf('## Workspace')).toBeLessThan(text.indexOf('## Goal'));
    expect((await run.http.get(`/projects/${id}/context-block`)).text).toBe(text);
    const started = (await run.http.post(`/projects/${id}/start-session`, {})).body;
    expect(Buffer.byteLength(started.context_block, 'utf8')).toBeLessThanOrEqual(DEFAULT_CAP);
  });
});

describe.each(hostedBackend())('context block across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's project id answers 404 on the context routes and tools; its sessions never show", async () => {
    const other = await tenantClient(run.testApp, 'neighbour');
    const intruder = other.http;
    const id = (await run.http.post('/projects', { name: 'Mine' })).body.id;
    await run.http.post(`/projects/${id}/start-session`, { name: 'owner-session' });
    expect((await intruder.get(`/projects/${id}/context`)).status).toBe(404);
    expect((await intruder.get(`/projects/${id}/context-block`)).status).toBe(404);
    const client = await connectMcp(run.testApp.url, other.token);
    try {
      expect((await callTool(client, 'get_context_block', { project_id: id })).structured?.code).toBe('PROJECT_NOT_FOUND');
      expect((await callTool(client, 'get_project_context', { project_id: id })).structured?.code).toBe('PROJECT_NOT_FOUND');
    } finally {
      await client.close();
    }
    // The neighbour's own project of the same name shows none of the owner's sessions.
    const theirs = (await intruder.post('/projects', { name: 'Mine' })).body.id;
    expect((await intruder.get(`/projects/${theirs}/context-block`)).text).not.toContain('owner-session');
  });
});
