import { randomBytes, randomUUID } from 'node:crypto';
import { OtlpLibraryLoader } from '../src/modules/ai-log/otlp-library.loader';
import { seedToolCalls } from './support/ai-log-seed';
import { eachBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { accept, failEverySecondChunk, OtlpReceiver, ReceivedRecord } from './support/otlp-receiver';

type Client = Awaited<ReturnType<typeof connectMcp>>;

const COLLECTOR_CREDENTIAL = `Bearer collector-${randomBytes(12).toString('hex')}`;

/** Export passes until nothing more waits; answers every pass's result. */
async function exportAll(client: Client, projectId: string, maxPasses = 20) {
  const passes: any[] = [];
  for (let i = 0; i < maxPasses; i++) {
    const res = await callTool(client, 'export_ai_log_otel', { project_id: projectId });
    expect(res.isError).toBe(false);
    passes.push(res.value);
    if (!res.value.more) return passes;
  }
  throw new Error(`still more to send after ${maxPasses} passes`);
}

const ofProject = (records: ReceivedRecord[], projectId: string) => records.filter((r) => r.attributes['baton.project.id'] === projectId);
const seqs = (records: ReceivedRecord[]) => records.map((r) => Number(r.attributes['baton.event.seq']));

describe.each(eachBackend())('AI-log OTLP export on %s', (_name, backend) => {
  let run: RunningBackend;
  let client: Client;
  const receiver = new OtlpReceiver();

  beforeAll(async () => {
    await receiver.start();
    run = await backend.start({
      SERVICE_AI_LOG_OTEL_ENABLED: 'true',
      SERVICE_AI_LOG_OTEL_ENDPOINT: receiver.endpoint,
      SERVICE_AI_LOG_OTEL_HEADERS: `authorization=${encodeURIComponent(COLLECTOR_CREDENTIAL)},x-collector-tenant=baton`,
      SERVICE_AI_LOG_OTEL_SERVICE_NAME: 'baton-e2e',
      SERVICE_AI_LOG_OTEL_TRACECOLLECTOR_COMPAT: 'true',
      SERVICE_AI_LOG_OTEL_MAX_RETRIES: '10',
      SERVICE_AI_LOG_OTEL_BACKOFF_BASE_S: '0.2',
      SERVICE_AI_LOG_OTEL_TIMEOUT_S: '1',
      SERVICE_AI_LOG_OTEL_TOTAL_DEADLINE_S: '3',
    });
    client = await connectMcp(run.testApp.url, run.token);
  });
  afterAll(async () => {
    await client?.close();
    await run?.stop();
    await receiver.stop();
  });
  beforeEach(() => {
    receiver.behaviour = accept;
  });

  const newProject = async () => (await run.http.post('/projects', { name: `Export ${randomUUID()}` })).body.id as string;

  test('1,234 events exported in passes: the receiver holds each exactly once, in order, in chunks of the configured size', async () => {
    const p = await newProject();
    await seedToolCalls(run.testApp, run.token, p, 1234);
    const seeded = (await callTool(client, 'export_ai_log', { project_id: p, kind: 'tool_call', limit: 10_000 })).value.jsonl
      .split('\n')
      .filter(Boolean)
      .map((l: string) => JSON.parse(l))
      .filter((e: any) => e.tool === 'get_project')
      .map((e: any) => e.id);
    expect(seeded).toHaveLength(1234);
    const before = receiver.requests.length;

    const passes = await exportAll(client, p);
    // Each pass fetches at most the batch (200); the export calls are logged events of the project too.
    expect(passes.map((x) => x.status)).toEqual(passes.map(() => 'ok'));
    expect(passes.length).toBe(7);
    expect(passes.slice(0, -1).every((x) => x.sent === 200 && x.chunks_sent === 4)).toBe(true);
    expect(passes[passes.length - 1]).toMatchObject({ more: false, pending: 0 });

    const requests = receiver.requests.slice(before);
    expect(requests.every((r) => r.status === 200)).toBe(true);
    const sizes = requests.map((r) => r.records.length);
    expect(sizes.slice(0, -1).every((n) => n === 50)).toBe(true);
    expect(sizes[sizes.length - 1]).toBeLessThanOrEqual(50);
    const received = ofProject(receiver.accepted, p);
    expect(received).toHaveLength(sizes.reduce((a, b) => a + b, 0));
    const ids = received.map((r) => String(r.attributes['baton.event.id']));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => seeded.includes(id))).toEqual(seeded);
    expect(seqs(received)).toEqual([...seqs(received)].sort((a, b) => a - b));

    const status = await callTool(client, 'get_ai_log_export_status', { project_id: p });
    expect(status.value.state).toMatchObject({ exported_count: ids.length, last_status: 'ok', pass_running: false });
  });

  test('an exported record carries the event, the resource, the headers and redacted arguments only', async () => {
    const p = await newProject();
    const token = `sk_service_${randomBytes(32).toString('base64url')}`;
    const session = (await run.http.post('/sessions/register', { project_id: p, name: 'exporter' })).body;
    await callTool(client, 'heartbeat', { session_id: session.id });
    await callTool(client, 'get_project', { project_id: p, token });
    const before = receiver.requests.length;
    const pass = (await callTool(client, 'export_ai_log_otel', { project_id: p })).value;
    expect(pass).toMatchObject({ status: 'ok', sent: 3, endpoint: receiver.endpoint });
    const request = receiver.requests[before];
    expect(request.path).toBe('/v1/logs');
    expect(request.headers.authorization).toBe(COLLECTOR_CREDENTIAL);
    expect(request.headers['x-collector-tenant']).toBe('baton');
    const [start, heartbeat, refused] = request.records;
    expect(start).toMatchObject({
      eventName: 'baton.session.start',
      severityText: 'INFO',
      body: expect.stringMatching(/^session exporter started by /),
      resource: { 'service.name': 'baton-e2e', 'service.otel_sink_hint': 'tracecollector' },
      scope: { name: 'baton.ai-log' },
      attributes: expect.objectContaining({ 'baton.event.kind': 'session_start', 'baton.project.id': p, 'session.id': session.id, 'baton.session.name': 'exporter' }),
    });
    expect(heartbeat.attributes).toMatchObject({ 'gen_ai.tool.name': 'heartbeat', 'baton.tool.outcome': 'ok', 'session.id': session.id, 'baton.tenant.id': expect.any(String) });
    expect(typeof heartbeat.attributes['baton.tool.duration_ms']).toBe('number');
    expect(refused).toMatchObject({ severityText: 'WARN', attributes: expect.objectContaining({ 'baton.tool.error_code': 'INVALID_INPUT', 'gen_ai.tool.name': 'get_project' }) });
    expect(JSON.parse(String(refused.attributes['baton.tool.arguments']))).toEqual({ project_id: p, token: '[redacted]' });
    expect(JSON.stringify(request.records)).not.toContain(token);

    const status = await callTool(client, 'get_ai_log_export_status', { project_id: p });
    expect(status.value.config).toMatchObject({
      enabled: true,
      endpoint_source: 'SERVICE_AI_LOG_OTEL_ENDPOINT',
      header_names: ['authorization', 'x-collector-tenant'],
      service_name: 'baton-e2e',
      sink_hint: true,
    });
    expect(status.text).not.toContain(COLLECTOR_CREDENTIAL.split(' ')[1]);
  });

  test('the receiver failing every second chunk: growing retry delays, a degraded pass within its deadline, then the next pass sends exactly what is missing', async () => {
    const p = await newProject();
    await seedToolCalls(run.testApp, run.token, p, 200);
    receiver.behaviour = failEverySecondChunk(500);
    const before = receiver.requests.length;
    const first = (await callTool(client, 'export_ai_log_otel', { project_id: p })).value;
    expect(first).toMatchObject({ status: 'degraded', reason: 'deadline', sent: 50, chunks_sent: 1, last_error: 'HTTP 500', more: true });
    expect(first.retries).toBeGreaterThanOrEqual(2);
    const delays: number[] = first.retry_delays_ms;
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]);
    expect(delays[0]).toBeGreaterThanOrEqual(200);
    // The pass stops before a wait that would cross the 3 s deadline (slack only for a late timer on a busy machine).
    expect(first.duration_ms).toBeLessThanOrEqual(3000 + 1000);
    const attempts = receiver.requests.slice(before).filter((r) => r.status === 500);
    expect(attempts).toHaveLength(first.retries + 1);
    for (let i = 1; i < attempts.length; i++) expect(attempts[i].at - attempts[i - 1].at).toBeGreaterThanOrEqual(delays[i - 1] - 5);
    const acceptedFirst = ofProject(receiver.accepted, p);
    expect(acceptedFirst).toHaveLength(50);

    const status = await callTool(client, 'get_ai_log_export_status', { project_id: p });
    expect(status.value.state).toMatchObject({ last_status: 'degraded', last_result: expect.objectContaining({ reason: 'deadline' }), exported_count: 50 });
    expect(status.value.state.pending).toBeGreaterThanOrEqual(150);

    receiver.behaviour = accept;
    const mark = receiver.requests.length;
    const second = (await callTool(client, 'export_ai_log_otel', { project_id: p })).value;
    expect(second).toMatchObject({ status: 'ok' });
    const resent = receiver.requests.slice(mark).flatMap((r) => r.records);
    const firstSeqs = new Set(seqs(acceptedFirst));
    expect(seqs(resent).some((s) => firstSeqs.has(s))).toBe(false);
    expect(Math.min(...seqs(resent))).toBeGreaterThan(Math.max(...firstSeqs));
    const all = ofProject(receiver.accepted, p);
    expect(new Set(all.map((r) => r.attributes['baton.event.id'])).size).toBe(all.length);
    expect(all.filter((r) => r.attributes['gen_ai.tool.name'] === 'get_project')).toHaveLength(200);
    expect(seqs(all)).toEqual([...seqs(all)].sort((a, b) => a - b));
  });

  test('a project switched off sends nothing until switched back on; a pass already running makes another answer busy', async () => {
    const p = await newProject();
    await seedToolCalls(run.testApp, run.token, p, 60);
    const off = await callTool(client, 'set_ai_log_export_config', { project_id: p, enabled: false });
    expect(off.value).toMatchObject({ enabled: false, disabled_reason: 'project', project_override: { enabled: false } });
    const before = receiver.requests.length;
    expect((await callTool(client, 'export_ai_log_otel', { project_id: p })).value).toMatchObject({ status: 'disabled', sent: 0, reason: 'disabled for this project' });
    expect(receiver.requests.length).toBe(before);

    await callTool(client, 'set_ai_log_export_config', { project_id: p, enabled: true });
    receiver.behaviour = () => ({ status: 200, delayMs: 400 });
    const [a, b] = await Promise.all([callTool(client, 'export_ai_log_otel', { project_id: p }), callTool(client, 'export_ai_log_otel', { project_id: p })]);
    expect([a.value.status, b.value.status].sort()).toEqual(['busy', 'ok']);
    const [ok, busy] = a.value.status === 'ok' ? [a.value, b.value] : [b.value, a.value];
    expect(busy.sent).toBe(0);
    const sent = ofProject(receiver.accepted, p);
    const ids = new Set(sent.map((r) => r.attributes['baton.event.id']));
    expect(ids.size).toBe(ok.sent);
    // OTLP delivery is at least once: a chunk is sent again only when its first attempt timed out
    // (the receiver's 400 ms on a starved machine), and the pass counts that as a retry.
    if (ok.retries === 0) expect(sent.length).toBe(ids.size);
  });

  test('events that belong to no project are exported by a pass without project_id, once', async () => {
    await callTool(client, 'list_projects');
    const before = receiver.accepted.length;
    const pass = (await callTool(client, 'export_ai_log_otel', {})).value;
    expect(pass).toMatchObject({ project_id: null, status: 'ok' });
    const sent = receiver.accepted.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.attributes['baton.project.id'] === undefined)).toBe(true);
    expect(sent.some((r) => r.attributes['gen_ai.tool.name'] === 'list_projects')).toBe(true);
    const again = (await callTool(client, 'export_ai_log_otel', {})).value;
    const ids = new Set(sent.map((r) => r.attributes['baton.event.id']));
    expect(receiver.accepted.slice(before + sent.length).some((r) => ids.has(r.attributes['baton.event.id']))).toBe(false);
    expect(again.status).toBe('ok');
  });

  test("a project's endpoint is only the last fallback: the operator's endpoint wins", async () => {
    const p = await newProject();
    const set = await callTool(client, 'set_ai_log_export_config', { project_id: p, endpoint: 'http://93.184.216.34:9/v1/logs', service_name: 'billing-app' });
    expect(set.value).toMatchObject({ endpoint: receiver.endpoint, endpoint_source: 'SERVICE_AI_LOG_OTEL_ENDPOINT', service_name: 'billing-app', service_name_source: 'project' });
    await seedToolCalls(run.testApp, run.token, p, 2);
    const before = receiver.accepted.length;
    expect((await callTool(client, 'export_ai_log_otel', { project_id: p })).value.status).toBe('ok');
    expect(receiver.accepted.slice(before).every((r) => r.resource['service.name'] === 'billing-app')).toBe(true);
    const cleared = await callTool(client, 'set_ai_log_export_config', { project_id: p, endpoint: null, service_name: null });
    expect(cleared.value.project_override).toEqual({ endpoint: null, service_name: null, enabled: true });
  });

  test('with the library absent, export reports unavailable and capture, timeline, export_ai_log and purge keep working', async () => {
    const loader = run.testApp.app.get(OtlpLibraryLoader);
    loader.requireModule = (id) => {
      throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
    };
    try {
      const p = await newProject();
      await callTool(client, 'get_project', { project_id: p });
      const before = receiver.requests.length;
      const pass = (await callTool(client, 'export_ai_log_otel', { project_id: p })).value;
      expect(pass).toMatchObject({ status: 'unavailable', reason: '@opentelemetry/otlp-transformer is not installed', sent: 0 });
      expect(receiver.requests.length).toBe(before);
      expect((await run.http.get(`/projects/${p}/timeline`)).body.events.map((e: any) => e.tool)).toEqual(['export_ai_log_otel', 'get_project']);
      expect((await callTool(client, 'export_ai_log', { project_id: p })).value.count).toBe(2);
      expect((await callTool(client, 'purge_ai_log', { project_id: p, before: new Date().toISOString() })).value.removed).toBe(3);
      expect((await callTool(client, 'get_ai_log_export_status', { project_id: p })).value.state.last_status).toBe('unavailable');
    } finally {
      loader.requireModule = undefined;
    }
  });

  test('get_ai_log_export_status answers from the database without a network call', async () => {
    const p = await newProject();
    const before = receiver.requests.length;
    const status = await callTool(client, 'get_ai_log_export_status', { project_id: p });
    expect(receiver.requests.length).toBe(before);
    expect(status.value).toMatchObject({
      project_id: p,
      config: { enabled: true, settings: { batch_size: 200, chunk_size: 50, max_retries: 10, backoff_base_s: 0.2, timeout_s: 1, total_deadline_s: 3 } },
      state: { watermark_seq: 0, exported_count: 0, last_status: null, last_attempt_at: null, pending: 0 },
    });
  });

  test('set_ai_log_export_config refuses credentials and bad input and stores nothing then', async () => {
    const p = await newProject();
    const refusals: [Record<string, unknown>, string, RegExp][] = [
      [{ endpoint: 'https://user:pw@collector.example.com/v1/logs' }, 'CREDENTIALS_NOT_ACCEPTED', /endpoint must not carry credentials/],
      [{ endpoint: 'https://collector.example.com/v1/logs?access_token=abc' }, 'CREDENTIALS_NOT_ACCEPTED', /query parameter access_token/],
      [{ service_name: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' }, 'CREDENTIALS_NOT_ACCEPTED', /service_name must not hold a secret/],
      [{ headers: 'authorization=Bearer x' }, 'INVALID_INPUT', /unknown field headers/],
      [{ endpoint: 'ftp://collector.example.com/v1/logs' }, 'INVALID_INPUT', /endpoint must be an http\(s\) URL/],
      [{ endpoint: 'not a url' }, 'INVALID_INPUT', /endpoint must be an absolute http\(s\) URL/],
      [{}, 'INVALID_INPUT', /give at least one of endpoint, service_name, enabled/],
      [{ enabled: 'yes' }, 'INVALID_INPUT', /enabled must be a boolean/],
      [{ enabled: null }, 'INVALID_INPUT', /enabled must be true or false/],
      [{ service_name: '' }, 'INVALID_INPUT', /service_name/],
    ];
    for (const [args, code, detail] of refusals) {
      const res = await callTool(client, 'set_ai_log_export_config', { project_id: p, ...args });
      expect({ args, code: res.structured?.code }).toEqual({ args, code });
      expect(res.text).toMatch(detail);
    }
    expect((await callTool(client, 'set_ai_log_export_config', { project_id: randomUUID(), enabled: false })).structured?.code).toBe('PROJECT_NOT_FOUND');
    expect((await callTool(client, 'set_ai_log_export_config', { project_id: 'x', enabled: false })).text).toBe('project_id must be a UUID');
    expect((await callTool(client, 'export_ai_log_otel', { project_id: 'x' })).structured?.code).toBe('INVALID_INPUT');
    expect((await callTool(client, 'export_ai_log_otel', { project_id: randomUUID() })).structured?.code).toBe('PROJECT_NOT_FOUND');
    expect((await callTool(client, 'get_ai_log_export_status', { project_id: p, verbose: true })).text).toMatch(/unknown field verbose/);
    expect((await callTool(client, 'get_ai_log_export_status', { project_id: p })).value.config.project_override).toBeNull();
  });
});
