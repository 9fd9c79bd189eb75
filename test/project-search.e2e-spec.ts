import { randomUUID } from 'node:crypto';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';

interface Hit {
  kind: string;
  id: string;
  title: string;
  snippet: string;
  rank: number;
}

describe.each(eachBackend())('project search on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  const search = async (p: string, query: string) => {
    const res = await run.http.get(`/projects/${p}/search?${query}`);
    expect(res.status).toBe(200);
    return res.body.results as Hit[];
  };
  const kinds = (hits: Hit[]) => hits.map((h) => h.kind).sort();
  async function created(path: string, body: unknown) {
    const res = await run.http.post(path, body);
    expect(res.status).toBeLessThan(300);
    return res.body;
  }

  test('finds the goal, sprint items, tasks, notes, decisions (log and pinned) and files, in any form of the word', async () => {
    const p = await createProject(run.http, 'Search');
    const session = await created('/sessions/register', { project_id: p });
    const goal = await created(`/projects/${p}/goal`, { content: 'Ship the zebra importer' });
    const item = await created(`/projects/${p}/sprint-items`, { title: 'Zebras in the importer', version: 'v1' });
    const task = await created('/tasks', { session_id: session.id, project_id: p, description: 'Imported the first zebra' });
    const note = await created(`/projects/${p}/notes`, { title: 'Zebra data', body: 'stripes everywhere' });
    const logged = await created(`/projects/${p}/decisions`, { title: 'Use CSV', body: 'zebra files come as CSV' });
    const pinned = await created(`/projects/${p}/decisions-pinned`, { title: 'No zebras in prod', body: '' });
    expect((await run.http.send('PUT', `/projects/${p}/files/ZOO.md`, { content: '# Zoo\n\nThe zebras live here.' })).status).toBe(201);
    await created(`/projects/${p}/notes`, { title: 'Lions', body: 'nothing striped' });

    const hits = await search(p, 'q=zebra');
    expect(kinds(hits)).toEqual(['decision', 'document', 'goal', 'note', 'pinned_decision', 'sprint_item', 'task']);
    const byKind = Object.fromEntries(hits.map((h) => [h.kind, h]));
    expect(byKind.goal.id).toBe(goal.id);
    expect(byKind.sprint_item).toMatchObject({ id: item.id, title: 'Zebras in the importer' });
    expect(byKind.task).toMatchObject({ id: task.id, title: 'Imported the first zebra' });
    expect(byKind.note).toMatchObject({ id: note.id, title: 'Zebra data', snippet: 'stripes everywhere' });
    expect(byKind.decision).toMatchObject({ id: logged.id, snippet: 'zebra files come as CSV' });
    expect(byKind.pinned_decision.id).toBe(pinned.id);
    expect(byKind.document).toMatchObject({ title: 'ZOO.md', snippet: '# Zoo The zebras live here.' });
    for (const h of hits) expect(typeof h.rank).toBe('number');
    // Ranked: a record that says it twice comes before one that says it once.
    await created(`/projects/${p}/notes`, { title: 'Giraffe zebra zebra zebra', body: 'zebra zebra' });
    expect((await search(p, 'q=giraffe%20zebra'))[0].title).toBe('Giraffe zebra zebra zebra');
    const ranked = await search(p, 'q=zebra&kinds=note');
    expect(ranked.map((h) => h.title)).toEqual(['Giraffe zebra zebra zebra', 'Zebra data']);
    expect(ranked[0].rank).toBeGreaterThan(ranked[1].rank);
    // Every word must match.
    expect((await search(p, 'q=zebra%20stripes')).map((h) => h.id)).toEqual([note.id]);
    expect(await search(p, 'q=okapi')).toEqual([]);
  });

  test('kinds narrows, limit caps, and the index follows every change and delete', async () => {
    const p = await createProject(run.http, 'Search sync');
    const note = await created(`/projects/${p}/notes`, { title: 'Quokka notes', body: 'first draft' });
    const item = await created(`/projects/${p}/sprint-items`, { title: 'Feed the quokka', version: 'v1' });
    expect(kinds(await search(p, 'q=quokka&kinds=note,sprint_item'))).toEqual(['note', 'sprint_item']);
    expect(kinds(await search(p, 'q=quokka&kinds=sprint_item'))).toEqual(['sprint_item']);
    expect(await search(p, 'q=quokka&limit=1')).toHaveLength(1);

    expect((await run.http.patch(`/projects/${p}/notes/${note.id}`, { title: 'Wombat notes' })).status).toBe(200);
    expect((await search(p, 'q=quokka')).map((h) => h.id)).toEqual([item.id]);
    expect((await search(p, 'q=wombat')).map((h) => h.id)).toEqual([note.id]);
    expect((await run.http.patch(`/projects/${p}/sprint-items/${item.id}`, { notes: 'wombat too' })).status).toBe(200);
    expect(kinds(await search(p, 'q=wombat'))).toEqual(['note', 'sprint_item']);
    expect((await run.http.delete(`/projects/${p}/notes/${note.id}`)).status).toBe(204);
    expect((await search(p, 'q=wombat')).map((h) => h.id)).toEqual([item.id]);
    expect((await run.http.delete(`/projects/${p}/sprint-items/${item.id}`)).status).toBeLessThan(300);
    expect(await search(p, 'q=wombat')).toEqual([]);
    expect(await search(p, 'q=quokka')).toEqual([]);
  });

  test('a project sees only its own records', async () => {
    const a = await createProject(run.http, 'Search A');
    const b = await createProject(run.http, 'Search B');
    await created(`/projects/${a}/notes`, { title: 'Narwhal plans' });
    expect(await search(b, 'q=narwhal')).toEqual([]);
    expect(kinds(await search(a, 'q=narwhal'))).toEqual(['note']);
  });

  test('bad input is refused naming the field; an unknown project is 404', async () => {
    const p = await createProject(run.http, 'Search bad');
    await created(`/projects/${p}/notes`, { title: 'Kept' });
    const cases: [string, RegExp][] = [
      ['', /q is required/],
      ['q=', /q must contain at least one word/],
      ['q=%22%2A%28%29', /q must contain at least one word/],
      [`q=${'a'.repeat(501)}`, /q must be at most 500/],
      ['q=x&limit=0', /limit must be at least 1/],
      ['q=x&limit=101', /limit must be at most 100/],
      ['q=x&limit=ten', /limit/],
      ['q=x&kinds=note,bogus', /kinds must name only/],
      ['q=x&other=1', /other/],
    ];
    for (const [query, detail] of cases) {
      const res = await run.http.get(`/projects/${p}/search?${query}`);
      expect([query, res.status, res.body.detail]).toEqual([query, 400, expect.stringMatching(detail)]);
    }
    // Query syntax is read as words, never as FTS or tsquery operators.
    expect((await run.http.get(`/projects/${p}/search?q=${encodeURIComponent('kept" OR NEAR(* AND !:&|')}`)).status).toBe(200);
    expect((await run.http.get(`/projects/${randomUUID()}/search?q=kept`)).status).toBe(404);
    expect((await run.http.get('/projects/not-a-uuid/search?q=kept')).body.detail).toMatch(/project_id/);
  });

  test('MCP search_project answers as the route does', async () => {
    const p = await createProject(run.http, 'Search MCP');
    const note = await created(`/projects/${p}/notes`, { title: 'Pangolin facts' });
    const client = await connectMcp(run.testApp.url, run.token, 'http', 'all');
    try {
      const res = await callTool(client, 'search_project', { project_id: p, q: 'pangolin', kinds: ['note'] });
      expect(res.isError).toBe(false);
      expect(res.value.results.map((h: Hit) => h.id)).toEqual([note.id]);
      const bad = await callTool(client, 'search_project', { project_id: p, q: 'x', kinds: ['bogus'] });
      expect([bad.isError, bad.text]).toEqual([true, expect.stringMatching(/kinds/)]);
    } finally {
      await client.close();
    }
  });
});

describe.each(hostedBackend())('project search across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's project answers 404 like an unknown one, and its records never show", async () => {
    const other = await tenantClient(run.testApp, 'tenant-b');
    const theirs = await createProject(other.http, 'Theirs');
    expect((await other.http.post(`/projects/${theirs}/notes`, { title: 'Secret capybara' })).status).toBe(201);
    const mine = await createProject(run.http, 'Mine');
    const res = await run.http.get(`/projects/${theirs}/search?q=capybara`);
    expect([res.status, res.body.detail]).toEqual([404, expect.stringMatching(/project not found/)]);
    expect((await run.http.get(`/projects/${mine}/search?q=capybara`)).body.results).toEqual([]);
    expect((await other.http.get(`/projects/${theirs}/search?q=capybara`)).body.results).toHaveLength(1);
  });
});
