import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { AiLogRecorder } from '../src/modules/ai-log/ai-log-recorder.service';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { seedToolCalls } from './support/ai-log-seed';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { OtlpReceiver } from './support/otlp-receiver';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';

type Client = Awaited<ReturnType<typeof connectMcp>>;

const lines = (jsonl: string) =>
  jsonl
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describePostgres('AI-log of two tenants on the hosted backend', () => {
  let db: TestDatabase;
  let app: TestApp;
  const receiver = new OtlpReceiver();
  const tenants: { id: string; token: string; http: Http; client: Client; project: string }[] = [];

  beforeAll(async () => {
    await receiver.start();
    db = await TestDatabase.create();
    app = await startApp(hostedEnv(db.url, { SERVICE_AI_LOG_OTEL_ENABLED: 'true', SERVICE_AI_LOG_OTEL_ENDPOINT: receiver.endpoint }));
    for (const name of ['tenant-a', 'tenant-b']) {
      const { tenant_id, token, http } = await tenantClient(app, name);
      const project = (await http.post('/projects', { name: 'Same name in both' })).body.id;
      tenants.push({ id: tenant_id, token, http, client: await connectMcp(app.url, token), project });
    }
  });
  afterAll(async () => {
    for (const t of tenants) await t.client.close();
    await app?.close();
    await db?.drop();
    await receiver.stop();
  });

  test('a tenant reads, exports and purges only its own log', async () => {
    const [a, b] = tenants;
    const aSession = (await a.http.post('/sessions/register', { project_id: a.project, name: 'a-session' })).body;
    await callTool(a.client, 'heartbeat', { session_id: aSession.id });
    await callTool(a.client, 'list_projects');
    await callTool(b.client, 'get_project', { project_id: b.project });
    // B naming A's ids: refused as unknown, and recorded in B's log only, attributed to nothing.
    expect((await callTool(b.client, 'heartbeat', { session_id: aSession.id })).structured?.code).toBe('SESSION_NOT_FOUND');
    expect((await callTool(b.client, 'get_project', { project_id: a.project })).structured?.code).toBe('PROJECT_NOT_FOUND');

    expect((await b.http.get(`/projects/${a.project}/timeline`)).status).toBe(404);
    expect((await b.http.get(`/projects/${a.project}/session-timeline`)).status).toBe(404);
    expect((await callTool(b.client, 'get_timeline', { project_id: a.project })).structured?.code).toBe('PROJECT_NOT_FOUND');
    expect((await callTool(b.client, 'export_ai_log', { project_id: a.project })).structured?.code).toBe('PROJECT_NOT_FOUND');
    expect((await callTool(b.client, 'set_ai_log_export_config', { project_id: a.project, enabled: false })).structured?.code).toBe('PROJECT_NOT_FOUND');
    expect((await callTool(b.client, 'get_ai_log_export_status', { project_id: a.project })).structured?.code).toBe('PROJECT_NOT_FOUND');

    const aEvents = lines((await callTool(a.client, 'export_ai_log', {})).value.jsonl);
    const bEvents = lines((await callTool(b.client, 'export_ai_log', {})).value.jsonl);
    const aIds = new Set(aEvents.map((e) => e.id));
    expect(bEvents.some((e) => aIds.has(e.id))).toBe(false);
    expect(bEvents.some((e) => e.project_id === a.project || e.session_id === aSession.id)).toBe(false);
    expect(aEvents.some((e) => e.session_id === aSession.id && e.tool === 'heartbeat')).toBe(true);
    expect(bEvents.filter((e) => e.tool === 'heartbeat')).toEqual([
      expect.objectContaining({ project_id: null, session_id: null, outcome: 'error', data: { arguments: { session_id: aSession.id }, error_detail: expect.any(String) } }),
    ]);

    const purged = await callTool(b.client, 'purge_ai_log', { before: new Date().toISOString() });
    expect(purged.value.removed).toBe(bEvents.length + 1);
    const aAfter = new Set(lines((await callTool(a.client, 'export_ai_log', {})).value.jsonl).map((e) => e.id));
    expect([...aIds].every((id) => aAfter.has(id))).toBe(true);
  });

  test('an export pass sends one tenant events only, with its own watermark', async () => {
    const [a, b] = tenants;
    await seedToolCalls(app, a.token, a.project, 30);
    await seedToolCalls(app, b.token, b.project, 20);
    const before = receiver.accepted.length;
    const passA = (await callTool(a.client, 'export_ai_log_otel', { project_id: a.project })).value;
    expect(passA.status).toBe('ok');
    const sentA = receiver.accepted.slice(before);
    expect(sentA.length).toBe(passA.sent);
    expect(sentA.every((r) => r.attributes['baton.tenant.id'] === a.id && r.attributes['baton.project.id'] === a.project)).toBe(true);
    const statusB = (await callTool(b.client, 'get_ai_log_export_status', { project_id: b.project })).value.state;
    expect(statusB).toMatchObject({ exported_count: 0, watermark_seq: 0 });
    expect(statusB.pending).toBeGreaterThanOrEqual(20);

    const passB = (await callTool(b.client, 'export_ai_log_otel', { project_id: b.project })).value;
    const sentB = receiver.accepted.slice(before + sentA.length);
    expect(sentB.length).toBe(passB.sent);
    expect(sentB.every((r) => r.attributes['baton.tenant.id'] === b.id)).toBe(true);
    // A's events that belong to no project are A's alone too.
    const mark = receiver.accepted.length;
    await callTool(a.client, 'export_ai_log_otel', {});
    expect(receiver.accepted.slice(mark).every((r) => r.attributes['baton.tenant.id'] === a.id)).toBe(true);
  });
});

describe('a clean shutdown loses no AI-log event', () => {
  const pending = (app: TestApp) => (app.app.get(AiLogRecorder) as unknown as { pendingCount: number }).pendingCount;

  async function callsThenStop(app: TestApp, token: string | undefined, projectId: string, count: number) {
    const client = await connectMcp(app.url, token);
    for (let i = 0; i < count; i++) await callTool(client, 'get_project', { project_id: projectId });
    await client.close();
    await app.app.get(AiLogRecorder).flush();
    // Recorded with nobody waiting for their writes: they are still in memory (or being
    // written) when the close begins.
    await seedToolCalls(app, token, projectId, 150);
    // The test is only meaningful while events are still unwritten when the close begins.
    expect(pending(app)).toBeGreaterThanOrEqual(149);
    await app.close();
  }

  async function countAfterRestart(app: TestApp, token: string | undefined, projectId: string) {
    const client = await connectMcp(app.url, token);
    try {
      const res = await callTool(client, 'export_ai_log', { project_id: projectId, kind: 'tool_call', limit: 10_000 });
      return lines(res.value.jsonl).filter((e) => e.tool === 'get_project').length;
    } finally {
      await client.close();
    }
  }

  test('SQLite: every call recorded before the stop is there after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-ailog-stop-'));
    const env = { SERVICE_DB: join(dir, 'baton.db') };
    try {
      const first = await startApp(env);
      const project = (await new Http(first.url).post('/projects', { name: 'Stopped' })).body.id;
      await callsThenStop(first, undefined, project, 15);
      const second = await startApp(env);
      try {
        expect(await countAfterRestart(second, undefined, project)).toBe(165);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describePostgres('on Postgres', () => {
    test('hosted: every call recorded before the stop is there after a restart', async () => {
      const db = await TestDatabase.create();
      try {
        const first = await startApp(hostedEnv(db.url));
        const { token, http } = await tenantClient(first, `stop-${randomUUID().slice(0, 8)}`);
        const project = (await http.post('/projects', { name: 'Stopped' })).body.id;
        await callsThenStop(first, token, project, 15);
        const second = await startApp(hostedEnv(db.url));
        try {
          expect(second.app.get(TenantResolver)).toBeDefined();
          expect(await countAfterRestart(second, token, project)).toBe(165);
        } finally {
          await second.close();
        }
      } finally {
        await db.drop();
      }
    });
  });
});
