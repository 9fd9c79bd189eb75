import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { OtlpLibraryLoader } from '../src/modules/ai-log/otlp-library.loader';
import { seedToolCalls } from './support/ai-log-seed';
import { eachBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { OtlpReceiver } from './support/otlp-receiver';
import { REPO_ROOT } from './support/processes';
import { startApp, TestApp } from './support/test-app';

type Client = Awaited<ReturnType<typeof connectMcp>>;

describe.each(eachBackend())('AI-log export switched off by the operator on %s', (_name, backend) => {
  let run: RunningBackend;
  let client: Client;
  const receiver = new OtlpReceiver();

  beforeAll(async () => {
    await receiver.start();
    // An endpoint is configured, the master switch is not.
    run = await backend.start({ SERVICE_AI_LOG_OTEL_ENDPOINT: receiver.endpoint });
    client = await connectMcp(run.testApp.url, run.token);
  });
  afterAll(async () => {
    await client?.close();
    await run?.stop();
    await receiver.stop();
  });

  test('the project settings cannot switch it on, nothing is sent, and the exporter is never loaded', async () => {
    const loader = run.testApp.app.get(OtlpLibraryLoader);
    const load = jest.spyOn(loader, 'load');
    try {
      const p = (await run.http.post('/projects', { name: 'Kept home' })).body.id;
      await seedToolCalls(run.testApp, run.token, p, 25);
      const on = await callTool(client, 'set_ai_log_export_config', { project_id: p, enabled: true });
      expect(on.isError).toBe(true);
      expect(on.structured).toMatchObject({ code: 'AI_LOG_EXPORT_DISABLED_BY_OPERATOR' });
      expect(on.text).toMatch(/switched off by the operator \(SERVICE_AI_LOG_OTEL_ENABLED\)/);
      expect((await callTool(client, 'get_ai_log_export_status', { project_id: p })).value.config.project_override).toBeNull();

      const renamed = await callTool(client, 'set_ai_log_export_config', { project_id: p, service_name: 'kept-home', enabled: false });
      expect(renamed.value).toMatchObject({ enabled: false, disabled_reason: 'operator', operator_enabled: false, service_name: 'kept-home' });

      const pass = await callTool(client, 'export_ai_log_otel', { project_id: p });
      expect(pass.value).toMatchObject({ status: 'disabled', reason: 'disabled by the operator', sent: 0, more: false });
      expect((await callTool(client, 'export_ai_log_otel', {})).value.status).toBe('disabled');
      const status = await callTool(client, 'get_ai_log_export_status', { project_id: p });
      expect(status.value.config).toMatchObject({ enabled: false, disabled_reason: 'operator', endpoint: receiver.endpoint });
      expect(status.value.state).toMatchObject({ last_status: 'disabled', watermark_seq: 0, exported_count: 0 });
      expect(status.value.state.pending).toBeGreaterThanOrEqual(25);
      expect(receiver.requests).toEqual([]);
      expect(load).not.toHaveBeenCalled();
      // Capture and reading are unaffected.
      expect((await run.http.get(`/projects/${p}/timeline?limit=500`)).body.events.length).toBeGreaterThanOrEqual(25);
    } finally {
      load.mockRestore();
    }
  });
});

describe('AI-log export fallbacks and clamps (SQLite)', () => {
  const receiver = new OtlpReceiver();
  let app: TestApp | undefined;
  let client: Client | undefined;

  beforeAll(async () => {
    await receiver.start();
  });
  afterEach(async () => {
    await client?.close();
    await app?.close();
    client = undefined;
    app = undefined;
  });
  afterAll(async () => {
    await receiver.stop();
  });

  const boot = async (env: Record<string, string>) => {
    app = await startApp(env);
    client = await connectMcp(app.url);
    return { app, client };
  };

  test('OTEL_EXPORTER_OTLP_ENDPOINT + /v1/logs, OTEL_EXPORTER_OTLP_HEADERS and OTEL_SERVICE_NAME are used when the service variables are unset', async () => {
    const { app, client } = await boot({
      SERVICE_AI_LOG_OTEL_ENABLED: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=from%20otel',
      OTEL_SERVICE_NAME: 'otel-named',
    });
    const p = (await new Http(app.url).post('/projects', { name: 'Fallback' })).body.id as string;
    await seedToolCalls(app, undefined, p, 3);
    const before = receiver.requests.length;
    const pass = await callTool(client, 'export_ai_log_otel', { project_id: p });
    expect(pass.value).toMatchObject({ status: 'ok', sent: 3, endpoint: `${receiver.url}/v1/logs` });
    const request = receiver.requests[before];
    expect(request.path).toBe('/v1/logs');
    expect(request.headers['x-api-key']).toBe('from otel');
    expect(request.records[0].resource).toEqual({ 'service.name': 'otel-named' });
    const status = await callTool(client, 'get_ai_log_export_status', { project_id: p });
    expect(status.value.config).toMatchObject({
      endpoint_source: 'OTEL_EXPORTER_OTLP_ENDPOINT',
      headers_source: 'OTEL_EXPORTER_OTLP_HEADERS',
      service_name_source: 'OTEL_SERVICE_NAME',
      sink_hint: false,
    });
    expect(status.text).not.toContain('from otel');
  });

  test("with no endpoint anywhere the pass is not_configured; a project's endpoint then completes the chain", async () => {
    const { app, client } = await boot({ SERVICE_AI_LOG_OTEL_ENABLED: 'true' });
    const p = (await new Http(app.url).post('/projects', { name: 'Own endpoint' })).body.id as string;
    await seedToolCalls(app, undefined, p, 2);
    const before = receiver.requests.length;
    expect((await callTool(client, 'export_ai_log_otel', { project_id: p })).value).toMatchObject({ status: 'not_configured', reason: 'no endpoint configured', sent: 0 });
    expect(receiver.requests.length).toBe(before);
    const set = await callTool(client, 'set_ai_log_export_config', { project_id: p, endpoint: receiver.endpoint });
    expect(set.value).toMatchObject({ enabled: true, endpoint: receiver.endpoint, endpoint_source: 'project' });
    const pass = await callTool(client, 'export_ai_log_otel', { project_id: p });
    // The two seeded calls, then the refused export call and the settings call: all calls of the project.
    expect(pass.value).toMatchObject({ status: 'ok', sent: 4 });
    expect(receiver.requests[before].records.map((r) => r.attributes['gen_ai.tool.name'])).toEqual([
      'get_project',
      'get_project',
      'export_ai_log_otel',
      'set_ai_log_export_config',
    ]);
    expect(receiver.requests[before].records.every((r) => r.attributes['baton.project.id'] === p)).toBe(true);
    // The events of no project have no project endpoint to fall back to.
    expect((await callTool(client, 'export_ai_log_otel', {})).value.status).toBe('not_configured');
  });

  test('out-of-range numbers are clamped to the spec bounds and the pass works with the clamped values', async () => {
    const { app, client } = await boot({
      SERVICE_AI_LOG_OTEL_ENABLED: 'true',
      SERVICE_AI_LOG_OTEL_ENDPOINT: receiver.endpoint,
      SERVICE_AI_LOG_OTEL_BATCH_SIZE: '3',
      SERVICE_AI_LOG_OTEL_CHUNK_SIZE: '0',
      SERVICE_AI_LOG_OTEL_MAX_RETRIES: '99',
      SERVICE_AI_LOG_OTEL_BACKOFF_BASE_S: '100',
      SERVICE_AI_LOG_OTEL_TIMEOUT_S: '0',
      SERVICE_AI_LOG_OTEL_TOTAL_DEADLINE_S: '9999',
    });
    const p = (await new Http(app.url).post('/projects', { name: 'Clamped' })).body.id as string;
    const status = await callTool(client, 'get_ai_log_export_status', { project_id: p });
    expect(status.value.config.settings).toEqual({ batch_size: 3, chunk_size: 1, max_retries: 10, backoff_base_s: 10, timeout_s: 1, total_deadline_s: 60 });
    await seedToolCalls(app, undefined, p, 5);
    const before = receiver.requests.length;
    const pass = await callTool(client, 'export_ai_log_otel', { project_id: p });
    expect(pass.value).toMatchObject({ status: 'ok', fetched: 3, sent: 3, chunks_sent: 3, more: true });
    expect(receiver.requests.slice(before).map((r) => r.records.length)).toEqual([1, 1, 1]);
  });
});

describe('the exporter library is not loaded while export is switched off (fresh process)', () => {
  let dir: string;
  const receiver = new OtlpReceiver();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'baton-otel-lazy-'));
    await receiver.start();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await receiver.stop();
  });

  /**
   * Boots Baton from its TypeScript sources in a new Node process (compiled on
   * the fly with the same SWC settings as the tests), runs one export pass of
   * the local tenant, and reports its status and the OpenTelemetry modules in
   * that process's require.cache.
   */
  async function exportInFreshProcess(env: Record<string, string>): Promise<{ status: string; loaded: string[] }> {
    const script = join(dir, `probe-${randomUUID()}.js`);
    writeFileSync(
      script,
      `
const fs = require('node:fs');
const path = require('node:path');
const load = require('node:module').createRequire(path.join(process.cwd(), 'package.json'));
const swc = load('@swc/core');
const swcrc = JSON.parse(fs.readFileSync(path.join(process.cwd(), '.swcrc'), 'utf8'));
delete swcrc.$schema;
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { ...swcrc, filename, swcrc: false, sourceMaps: false });
  module._compile(code, filename);
};
load('reflect-metadata');
(async () => {
  const { createApp } = load('./src/app.factory.ts');
  const { loadConfig } = load('./src/config/app-config.ts');
  const { runWithTenant } = load('./libs/tenancy/index.ts');
  const { TenantResolver } = load('./src/modules/tenants/tenant-resolver.service.ts');
  const { AiLogOtelExportService } = load('./src/modules/ai-log/ai-log-otel-export.service.ts');
  const env = JSON.parse(process.env.PROBE_ENV);
  const app = await createApp(loadConfig(env), { logWrite: () => {} });
  await app.init();
  const tenant = await app.get(TenantResolver).resolve(undefined);
  const result = await runWithTenant(tenant, () => app.get(AiLogOtelExportService).exportPass(null));
  // The SDK and exporter packages; @opentelemetry/api (a small facade that prom-client, of /metrics, loads) is not one of them.
  const loaded = Object.keys(require.cache).filter((k) => k.includes(path.sep + '@opentelemetry' + path.sep) && !k.includes(path.sep + '@opentelemetry' + path.sep + 'api' + path.sep));
  await app.close();
  process.stdout.write(JSON.stringify({ status: result.status, loaded }));
})().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });
`,
    );
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const probeEnv = { SERVICE_DATA_DIR: dataDir, SERVICE_LOG_LEVEL: 'error', SERVICE_SWEEP_INTERVAL_SECONDS: '0', ...env };
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [script],
        { cwd: REPO_ROOT, env: { PATH: process.env.PATH, PROBE_ENV: JSON.stringify(probeEnv) }, timeout: 90_000, maxBuffer: 8 * 1024 * 1024 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    return JSON.parse(out) as { status: string; loaded: string[] };
  }

  test('switched off: the pass answers disabled and no OpenTelemetry SDK or exporter module is in require.cache', async () => {
    const off = await exportInFreshProcess({ SERVICE_AI_LOG_OTEL_ENDPOINT: receiver.endpoint });
    expect(off).toEqual({ status: 'disabled', loaded: [] });
    expect(receiver.requests).toEqual([]);
  }, 120_000);

  test('switched on: the same probe sees the exporter loaded (the check above can fail)', async () => {
    const on = await exportInFreshProcess({ SERVICE_AI_LOG_OTEL_ENABLED: 'true', SERVICE_AI_LOG_OTEL_ENDPOINT: receiver.endpoint });
    expect(on.status).toBe('ok');
    expect(on.loaded.some((k) => k.includes('otlp-transformer'))).toBe(true);
  }, 120_000);
});
