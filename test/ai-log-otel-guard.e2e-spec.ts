import { randomBytes } from 'node:crypto';
import { AiLogExportConfig } from '../src/modules/ai-log/ai-log-export-config.entity';
import { OtlpReceiver } from './support/otlp-receiver';
import { seedToolCalls } from './support/ai-log-seed';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { INTERNAL_HOST_SPELLINGS, startTcpTrap, TcpTrap } from './support/tcp-trap';
import { inTenantDb } from './support/tenant-db';
import { hostedEnv, provisionTenant, startApp, TestApp } from './support/test-app';

const COLLECTOR_CREDENTIAL = `Bearer collector-${randomBytes(12).toString('hex')}`;

/** Export on, the operator's collector credential configured, but no operator endpoint: a project's own endpoint is used. */
const exportEnv = (extra: Record<string, string> = {}) => ({
  SERVICE_AI_LOG_OTEL_ENABLED: 'true',
  SERVICE_AI_LOG_OTEL_HEADERS: `authorization=${encodeURIComponent(COLLECTOR_CREDENTIAL)}`,
  SERVICE_AI_LOG_OTEL_TIMEOUT_S: '1',
  SERVICE_AI_LOG_OTEL_TOTAL_DEADLINE_S: '3',
  ...extra,
});

describePostgres("a project's own OTLP endpoint on a hosted instance", () => {
  let db: TestDatabase;
  let strict: TestApp;
  let allowing: TestApp;
  let trap: TcpTrap;
  const receiver = new OtlpReceiver();

  beforeAll(async () => {
    trap = await startTcpTrap();
    await receiver.start();
    db = await TestDatabase.create();
    strict = await startApp(hostedEnv(db.url, exportEnv()));
    allowing = await startApp(hostedEnv(db.url, exportEnv({ SERVICE_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' })));
  });
  afterAll(async () => {
    await strict?.close();
    await allowing?.close();
    await db?.drop();
    await receiver.stop();
    await trap?.close();
  });

  test('internal endpoints in every spelling are refused when set, and a stored one is refused at export: the listener sees nothing', async () => {
    const { token } = await provisionTenant(strict, 'otlp-scan');
    const client = await connectMcp(strict.url, token);
    try {
      const p = (await new Http(strict.url, token).post('/projects', { name: 'Scan' })).body.id as string;
      const hosts = INTERNAL_HOST_SPELLINGS;
      for (const host of hosts) {
        const res = await callTool(client, 'set_ai_log_export_config', { project_id: p, endpoint: `http://${host}:${trap.port}/v1/logs` });
        expect({ host, code: res.structured?.code }).toEqual({ host, code: 'ENDPOINT_REFUSED' });
      }
      expect((await callTool(client, 'get_ai_log_export_status', { project_id: p })).value.config.project_override).toBeNull();

      // As if stored before its name started resolving to an internal address.
      await inTenantDb(strict, token, (m) =>
        m.insert(AiLogExportConfig, { project_id: p, otlp_endpoint: `http://localhost:${trap.port}/v1/logs`, service_name: null, enabled: true, updated_at: new Date() }),
      );
      await seedToolCalls(strict, token, p, 3);
      const pass = (await callTool(client, 'export_ai_log_otel', { project_id: p })).value;
      expect(pass).toMatchObject({ status: 'refused', sent: 0 });
      expect(pass.reason).toMatch(/127\.0\.0\.1|::1/);
      expect(trap.connections()).toBe(0);
    } finally {
      await client.close();
    }
  });

  test("a permitted project endpoint receives the events without the operator's collector credential", async () => {
    const { token } = await provisionTenant(allowing, 'otlp-own');
    const client = await connectMcp(allowing.url, token);
    try {
      const p = (await new Http(allowing.url, token).post('/projects', { name: 'Own collector' })).body.id as string;
      const set = await callTool(client, 'set_ai_log_export_config', { project_id: p, endpoint: receiver.endpoint });
      expect(set.value).toMatchObject({ endpoint: receiver.endpoint, endpoint_source: 'project', headers_configured: false, headers_source: null });
      await seedToolCalls(allowing, token, p, 3);
      const pass = (await callTool(client, 'export_ai_log_otel', { project_id: p })).value;
      expect(pass.status).toBe('ok');
      expect(receiver.acceptedRequests.length).toBeGreaterThan(0);
      for (const request of receiver.requests) {
        expect(request.headers.authorization).toBeUndefined();
        expect(JSON.stringify(request.headers)).not.toContain(COLLECTOR_CREDENTIAL);
      }
    } finally {
      await client.close();
    }
  });
});
