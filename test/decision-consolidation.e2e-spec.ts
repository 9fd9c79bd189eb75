import { randomUUID } from 'node:crypto';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { Receiver } from './support/http-receiver';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';

/** What an OpenAI-compatible provider answers: the model's text in the first choice. */
const completion = (content: unknown) => ({ id: 'cmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

describe.each(eachBackend())('decision-log consolidation on %s', (_name, backend) => {
  let run: RunningBackend;
  let plain: RunningBackend;
  let provider: Receiver;

  beforeAll(async () => {
    provider = await Receiver.start();
    run = await backend.start({ SERVICE_LLM_URL: `${provider.url}/v1`, SERVICE_LLM_API_KEY: 'llm-test-key', SERVICE_LLM_MODEL: 'stand-in', SERVICE_MCP_RATE_LIMIT: '1000000' });
    plain = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
    await plain?.stop();
    await provider?.close();
  });
  beforeEach(() => {
    provider.requests.length = 0;
    provider.status = 200;
    provider.reply = null;
  });

  async function logDecisions(r: RunningBackend, p: string, titles: string[]) {
    const ids: string[] = [];
    for (const title of titles) {
      const res = await r.http.post(`/projects/${p}/decisions`, { title, body: `why ${title}` });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    return ids;
  }
  const links = async (r: RunningBackend, p: string) =>
    Object.fromEntries((await r.http.get(`/projects/${p}/decisions`)).body.map((d: { id: string; superseded_by_id: string | null }) => [d.id, d.superseded_by_id]));

  test('without a model provider it answers 409 "not configured" and changes nothing; an unknown project is 404', async () => {
    const p = await createProject(plain.http, 'No model');
    const [a, b] = await logDecisions(plain, p, ['Use Postgres', 'Use Postgres everywhere']);
    const res = await plain.http.post(`/projects/${p}/decisions/consolidate`);
    expect([res.status, res.body.code, res.body.detail]).toEqual([409, 'CONSOLIDATION_NOT_CONFIGURED', expect.stringMatching(/not configured.*SERVICE_LLM_URL/)]);
    expect(await links(plain, p)).toEqual({ [a]: null, [b]: null });
    expect((await plain.http.post(`/projects/${randomUUID()}/decisions/consolidate`)).status).toBe(404);
    expect((await plain.http.post('/projects/x/decisions/consolidate')).body.detail).toMatch(/project_id/);
  });

  test("the provider's groups are applied: each duplicate linked to the entry kept, and the provider sees the live log", async () => {
    const p = await createProject(run.http, 'Consolidate');
    const [a, b, c, d] = await logDecisions(run, p, ['Use Postgres', 'Postgres is the database', 'Ship weekly', 'Use Postgres for all data']);
    provider.reply = () => completion(JSON.stringify({ groups: [{ keep_id: d, duplicate_ids: [a, b] }] }));
    const res = await run.http.post(`/projects/${p}/decisions/consolidate`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ considered: 4, groups: [{ keep_id: d, duplicate_ids: [a, b] }], superseded_count: 2 });
    expect(await links(run, p)).toEqual({ [a]: d, [b]: d, [c]: null, [d]: null });

    const [call] = provider.requests;
    expect(call).toMatchObject({ method: 'POST', path: '/v1/chat/completions', headers: expect.objectContaining({ authorization: 'Bearer llm-test-key' }) });
    expect(call.body).toMatchObject({ model: 'stand-in', response_format: { type: 'json_object' } });
    const shown = (call.body.messages[1].content as string).split('\n').map((line) => JSON.parse(line).id);
    expect(shown.sort()).toEqual([a, b, c, d].sort());

    // The next run shows only live entries; an answer without duplicates changes nothing.
    provider.reply = () => completion('{"groups": []}');
    expect((await run.http.post(`/projects/${p}/decisions/consolidate`)).body).toEqual({ considered: 2, groups: [], superseded_count: 0 });
    expect(
      (provider.requests[1].body.messages[1].content as string)
        .split('\n')
        .map((line) => JSON.parse(line).id)
        .sort(),
    ).toEqual([c, d].sort());
  });

  test('bad provider output or a failing provider is refused with 502 and nothing changes', async () => {
    const p = await createProject(run.http, 'Bad model');
    const [a, b, c] = await logDecisions(run, p, ['One', 'Two', 'Three']);
    const answers: [string, () => unknown, number, RegExp][] = [
      ['not JSON', () => completion('Sure! Here are the groups: ...'), 200, /not JSON/],
      ['no groups', () => completion('{"merged": []}'), 200, /no groups array/],
      ['unknown id', () => completion(JSON.stringify({ groups: [{ keep_id: a, duplicate_ids: [randomUUID()] }] })), 200, /not in the log/],
      [
        'id twice',
        () =>
          completion(
            JSON.stringify({
              groups: [
                { keep_id: a, duplicate_ids: [b] },
                { keep_id: c, duplicate_ids: [b] },
              ],
            }),
          ),
        200,
        /named twice/,
      ],
      ['keep is a duplicate', () => completion(JSON.stringify({ groups: [{ keep_id: a, duplicate_ids: [a] }] })), 200, /named twice/],
      ['empty group', () => completion(JSON.stringify({ groups: [{ keep_id: a, duplicate_ids: [] }] })), 200, /no duplicates/],
      ['no message', () => ({ choices: [] }), 200, /without a message/],
      ['provider error', () => ({ error: { message: 'overloaded' } }), 503, /HTTP 503/],
    ];
    for (const [label, reply, status, detail] of answers) {
      provider.reply = reply;
      provider.status = status;
      const res = await run.http.post(`/projects/${p}/decisions/consolidate`);
      expect([label, res.status, res.body.code, res.body.detail]).toEqual([label, 502, 'CONSOLIDATION_FAILED', expect.stringMatching(detail)]);
    }
    expect(await links(run, p)).toEqual({ [a]: null, [b]: null, [c]: null });
  });

  test('a log changed while the model worked is refused with 409 and only the other consolidation is kept', async () => {
    const p = await createProject(run.http, 'Race');
    const [a, b, c] = await logDecisions(run, p, ['Lint in CI', 'Run the linter in CI', 'CI lints']);
    let calls = 0;
    let second: Promise<{ status: number; body: any }> | undefined;
    provider.reply = async () => {
      calls += 1;
      if (calls === 1) {
        // While the model answers the first run, a second run consolidates the same entries.
        second = run.http.post(`/projects/${p}/decisions/consolidate`);
        await second;
        return completion(JSON.stringify({ groups: [{ keep_id: a, duplicate_ids: [b, c] }] }));
      }
      return completion(JSON.stringify({ groups: [{ keep_id: c, duplicate_ids: [a, b] }] }));
    };
    const first = await run.http.post(`/projects/${p}/decisions/consolidate`);
    expect([first.status, first.body.code]).toEqual([409, 'CONSOLIDATION_STALE']);
    expect((await second)?.body).toEqual({ considered: 3, groups: [{ keep_id: c, duplicate_ids: [a, b] }], superseded_count: 2 });
    expect(await links(run, p)).toEqual({ [a]: c, [b]: c, [c]: null });
  });

  test('a log of fewer than two live entries is not sent to the provider', async () => {
    const p = await createProject(run.http, 'Short log');
    expect((await run.http.post(`/projects/${p}/decisions/consolidate`)).body).toEqual({ considered: 0, groups: [], superseded_count: 0 });
    await logDecisions(run, p, ['Only one']);
    expect((await run.http.post(`/projects/${p}/decisions/consolidate`)).body).toEqual({ considered: 1, groups: [], superseded_count: 0 });
    expect(provider.requests).toEqual([]);
  });

  test('MCP consolidate_decisions applies the same consolidation', async () => {
    const p = await createProject(run.http, 'Consolidate MCP');
    const [a, b] = await logDecisions(run, p, ['Tabs', 'Use tabs']);
    provider.reply = () => completion(JSON.stringify({ groups: [{ keep_id: b, duplicate_ids: [a] }] }));
    const client = await connectMcp(run.testApp.url, run.token, 'http', 'all');
    try {
      const res = await callTool(client, 'consolidate_decisions', { project_id: p });
      expect(res.value).toEqual({ considered: 2, groups: [{ keep_id: b, duplicate_ids: [a] }], superseded_count: 1 });
    } finally {
      await client.close();
    }
    expect(await links(run, p)).toEqual({ [a]: b, [b]: null });
  });
});

describe.each(hostedBackend())('decision-log consolidation across tenants on %s', (_name, backend) => {
  let run: RunningBackend;
  let provider: Receiver;

  beforeAll(async () => {
    provider = await Receiver.start();
    run = await backend.start({ SERVICE_LLM_URL: provider.url });
  });
  afterAll(async () => {
    await run?.stop();
    await provider?.close();
  });

  test("another tenant's project answers 404, and its log is neither sent to the provider nor changed", async () => {
    const other = await tenantClient(run.testApp, 'tenant-b');
    const theirs = await createProject(other.http, 'Theirs');
    for (const title of ['A', 'A again']) expect((await other.http.post(`/projects/${theirs}/decisions`, { title })).status).toBe(201);
    provider.reply = () => completion('{"groups": []}');
    const res = await run.http.post(`/projects/${theirs}/decisions/consolidate`);
    expect([res.status, res.body.detail]).toEqual([404, expect.stringMatching(/project not found/)]);
    expect(provider.requests).toEqual([]);
    expect((await other.http.get(`/projects/${theirs}/decisions`)).body.map((d: { superseded_by_id: string | null }) => d.superseded_by_id)).toEqual([null, null]);
  });
});
