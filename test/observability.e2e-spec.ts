import { ShutdownDrain } from '../src/common/lifecycle/shutdown-drain';
import { Tracing } from '../src/common/observability/tracing';
import { ADMIN_PASSWORD, adminClient } from './support/admin';
import { eachBackend, RunningBackend } from './support/backends';
import { dashboardSocket } from './support/dashboard-socket';
import { Http } from './support/http';
import { Receiver } from './support/http-receiver';
import { startApp, TestApp } from './support/test-app';
import { createProject } from './support/projects';
import { waitUntil } from './support/wait';

/**
 * What an operator sees of a running instance: every answer carries an
 * X-Request-Id that is also on every log line of that request and on its
 * access-log line; /metrics serves request, pool, waiter, socket and event
 * figures without a tenant's names or ids; liveness and readiness answer for
 * Kubernetes, and readiness turns 503 the moment the instance starts stopping,
 * when every long-poll answers at once.
 */
const METRICS_TOKEN = 'scrape-token-4b8f2c7d9e';

describe.each(eachBackend())('observability on %s', (name, backend) => {
  let run: RunningBackend;
  let http: Http;
  beforeAll(async () => {
    run = await backend.start({ SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD, SERVICE_LOG_LEVEL: 'info', SERVICE_METRICS_TOKEN: METRICS_TOKEN });
    http = run.http;
  });
  afterAll(() => run?.stop());

  const logLines = () => run.testApp.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
  const scrape = async () => {
    const answer = await new Http(run.testApp.url).get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return answer.text;
  };

  test('an answer carries the caller’s request id, or a new one; the access log names route, status and id, never the query', async () => {
    const projectId = await createProject(http, `Observed ${name}`);
    const given = await http.get(`/projects/${projectId}?token=do-not-log-me`, { 'x-request-id': 'balancer-7f3a9c21' });
    expect(given.status).toBe(200);
    expect(given.headers.get('x-request-id')).toBe('balancer-7f3a9c21');
    const fresh = await http.get(`/projects/${projectId}`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await http.get(`/projects/${projectId}`, { 'x-request-id': 'bad id\twith "quotes"' });
    expect(hostile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const line = await waitUntil(() => logLines().find((l) => l.msg === 'request' && l.request_id === 'balancer-7f3a9c21'), 2000, 'access log line');
    expect(line).toMatchObject({ level: 'info', method: 'GET', route: '/projects/:project_id', path: `/projects/${projectId}`, status: 200 });
    expect(typeof line.duration_ms).toBe('number');
    expect(run.testApp.logs.join('\n')).not.toContain('do-not-log-me');
  });

  test('a log line written while a request is served carries its request id', async () => {
    const admin = await adminClient(run.testApp);
    const failed = await admin.get('/admin/__error_test', { 'x-request-id': 'error-test-0a1b2c3d' });
    expect(failed.status).toBe(500);
    const errorLine = logLines().find((l) => l.level === 'error' && l.error_id === failed.body.error_id);
    expect(errorLine).toMatchObject({ request_id: 'error-test-0a1b2c3d' });
  });

  test('/metrics: request figures by route pattern, waiters, sockets, pool, events; no tenant or project ids; its token is required', async () => {
    const projectId = await createProject(http, `Metered ${name}`);
    const session = (await http.post('/sessions/register', { project_id: projectId, name: 'meter' })).body;
    const item = await http.post(`/projects/${projectId}/sprint-items`, { title: 'Count my claim', version: 'v1', prospect_bypass: 1 });
    expect(item.status).toBe(201);
    const claim = await http.post(`/projects/${projectId}/sprint-items/${item.body.id}/claim`, { session_id: session.id });
    expect(claim.status).toBe(200);
    const socket = await dashboardSocket(run.testApp.url, run.token);
    const waiting = http.post(`/projects/${projectId}/messages/receive`, { session_id: session.id, wait_seconds: 20 });
    try {
      const text = await waitUntil(
        async () => {
          const body = await scrape();
          return /^baton_long_poll_waiters [1-9]/m.test(body) && body;
        },
        5000,
        'the waiter in /metrics',
      );
      expect(text).toMatch(/^baton_http_requests_total\{method="POST",route="\/projects\/:project_id\/sprint-items\/:item_id\/claim",status="2xx"\} [1-9]/m);
      expect(text).toMatch(/^baton_http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/projects\/:project_id",status="2xx"\} \d+/m);
      expect(text).toMatch(/^baton_sprint_item_changes_total\{change="claimed"\} [1-9]/m);
      expect(text).toMatch(/^baton_events_total\{event="session_started"\} [1-9]/m);
      expect(text).toMatch(/^baton_websocket_clients 1$/m);
      expect(text).toMatch(/^baton_process_resident_memory_bytes \d+/m);
      if (run.db) expect(text).toMatch(/^baton_db_pool_connections\{state="total"\} [1-9]/m);
      expect(text).not.toContain(projectId);
      expect(text).not.toContain(session.id);
      if (run.testApp.config.isHosted) expect(text).not.toContain('tenant-a');
    } finally {
      socket.ws.close();
    }
    expect((await waiting).status).toBe(200);

    const anonymous = await new Http(run.testApp.url).get('/metrics');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.detail).toMatch(/SERVICE_METRICS_TOKEN/);
    expect((await new Http(run.testApp.url).get('/metrics', { authorization: 'Bearer wrong' })).status).toBe(401);
  });

  test('liveness and readiness; once stopping, readiness is 503 and a long-poll answers at once with what it has', async () => {
    const client = new Http(run.testApp.url);
    expect((await client.get('/health/live')).body).toEqual({ status: 'ok' });
    expect((await client.get('/health/ready')).body).toEqual({ status: 'ready' });
    const projectId = await createProject(http, `Stopping ${name}`);
    const session = (await http.post('/sessions/register', { project_id: projectId, name: 'waiter' })).body;
    const started = Date.now();
    const waiting = http.post(`/projects/${projectId}/messages/receive`, { session_id: session.id, wait_seconds: 60 });
    await waitUntil(async () => /^baton_long_poll_waiters [1-9]/m.test(await scrape()), 5000, 'the waiter');
    run.testApp.app.get(ShutdownDrain).begin();
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.body.messages).toEqual([]);
    expect(Date.now() - started).toBeLessThan(30_000);
    const ready = await client.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.detail).toMatch(/stopping/);
    expect((await client.get('/health/live')).status).toBe(200);
  });
});

describe('traces, when an OTLP endpoint is configured', () => {
  let receiver: Receiver;
  let testApp: TestApp | undefined;
  beforeAll(async () => {
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await testApp?.close();
    await receiver.close();
  });

  test('each request is one server span named by its route, a child of the caller’s traceparent, exported on stop', async () => {
    testApp = await startApp({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'baton-traced', SERVICE_LOG_LEVEL: 'info' });
    const http = new Http(testApp.url);
    const projectId = await createProject(http, 'Traced');
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const read = await http.get(`/projects/${projectId}`, { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, 'x-request-id': 'traced-request-01' });
    expect(read.status).toBe(200);
    const logged = testApp.logs.map((l) => JSON.parse(l)).find((l) => l.request_id === 'traced-request-01');
    expect(logged).toMatchObject({ trace_id: traceId });
    await testApp.close();
    testApp = undefined;

    const spans = receiver
      .at('/v1/traces')
      .flatMap((r) => r.body.resourceSpans)
      .flatMap((rs: any) => rs.scopeSpans.flatMap((ss: any) => ss.spans.map((span: any) => ({ ...span, resource: rs.resource }))));
    const span = spans.find((s: any) => s.traceId === traceId);
    expect(span).toMatchObject({ name: 'GET /projects/:project_id', parentSpanId: '00f067aa0ba902b7', kind: 2 });
    const attributes = Object.fromEntries(span.attributes.map((a: any) => [a.key, Object.values(a.value)[0]]));
    expect(attributes).toMatchObject({ 'http.route': '/projects/:project_id', 'baton.request_id': 'traced-request-01' });
    expect(Number(attributes['http.response.status_code'])).toBe(200);
    expect(span.resource.attributes).toEqual(expect.arrayContaining([{ key: 'service.name', value: { stringValue: 'baton-traced' } }]));
    expect(spans.some((s: any) => s.name === 'POST /projects')).toBe(true);
  });

  test('without an endpoint tracing stays off', async () => {
    const quiet = await startApp({});
    try {
      await new Http(quiet.url).get('/health');
      expect(quiet.app.get(Tracing).enabled).toBe(false);
    } finally {
      await quiet.close();
    }
  });
});
