import { OutboundGuard } from '../../../libs/outbound-guard';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { ConfigError, loadConfig } from '../../config/app-config';
import { AiLogExportConfig } from './ai-log-export-config.entity';
import { AiLogExportConfigService } from './ai-log-export-config.service';

const resolver = (env: Record<string, string>) =>
  new AiLogExportConfigService(undefined as unknown as TenantDb, new Clock(), loadConfig(env, '/tmp'), new OutboundGuard({ enforce: false, allowedHosts: [] }));
const override = (fields: Partial<AiLogExportConfig>): AiLogExportConfig => ({
  project_id: '00000000-0000-4000-8000-000000000001',
  otlp_endpoint: null,
  service_name: null,
  enabled: true,
  updated_at: new Date(),
  ...fields,
});

describe('AI-log export configuration (service spec §6 and §8)', () => {
  // variable, value in the environment, setting as reported, effective value
  const clamps: [string, string, string, number][] = [
    ['SERVICE_AI_LOG_OTEL_BATCH_SIZE', '0', 'batch_size', 1],
    ['SERVICE_AI_LOG_OTEL_BATCH_SIZE', '5000', 'batch_size', 1000],
    ['SERVICE_AI_LOG_OTEL_BATCH_SIZE', '350', 'batch_size', 350],
    ['SERVICE_AI_LOG_OTEL_CHUNK_SIZE', '0', 'chunk_size', 1],
    ['SERVICE_AI_LOG_OTEL_CHUNK_SIZE', '999', 'chunk_size', 200],
    ['SERVICE_AI_LOG_OTEL_MAX_RETRIES', '-3', 'max_retries', 0],
    ['SERVICE_AI_LOG_OTEL_MAX_RETRIES', '50', 'max_retries', 10],
    ['SERVICE_AI_LOG_OTEL_BACKOFF_BASE_S', '0', 'backoff_base_s', 0.05],
    ['SERVICE_AI_LOG_OTEL_BACKOFF_BASE_S', '60', 'backoff_base_s', 10],
    ['SERVICE_AI_LOG_OTEL_BACKOFF_BASE_S', '1.5', 'backoff_base_s', 1.5],
    ['SERVICE_AI_LOG_OTEL_TIMEOUT_S', '0.2', 'timeout_s', 1],
    ['SERVICE_AI_LOG_OTEL_TIMEOUT_S', '45', 'timeout_s', 30],
    ['SERVICE_AI_LOG_OTEL_TOTAL_DEADLINE_S', '0', 'total_deadline_s', 1],
    ['SERVICE_AI_LOG_OTEL_TOTAL_DEADLINE_S', '600', 'total_deadline_s', 60],
  ];

  test.each(clamps)('%s=%s is used as %s %d', (variable, value, setting, expected) => {
    const { view } = resolver({ [variable]: value }).resolveWith(null);
    expect((view.settings as Record<string, number>)[setting]).toBe(expected);
  });

  test('the defaults are 200, 50, 3, 0.5 s, 5 s and 20 s, and export is off', () => {
    const { view } = resolver({}).resolveWith(null);
    expect(view.settings).toEqual({ batch_size: 200, chunk_size: 50, max_retries: 3, backoff_base_s: 0.5, timeout_s: 5, total_deadline_s: 20 });
    expect(view).toMatchObject({ enabled: false, disabled_reason: 'operator', operator_enabled: false, service_name: 'service', service_name_source: 'default', sink_hint: false });
  });

  test('the chunk size is never above the batch size', () => {
    expect(resolver({ SERVICE_AI_LOG_OTEL_BATCH_SIZE: '20', SERVICE_AI_LOG_OTEL_CHUNK_SIZE: '50' }).resolveWith(null).view.settings).toMatchObject({
      batch_size: 20,
      chunk_size: 20,
    });
  });

  test('a value that is not a number stops the boot, naming the variable', () => {
    expect(() => loadConfig({ SERVICE_AI_LOG_OTEL_CHUNK_SIZE: 'fifty' }, '/tmp')).toThrow(ConfigError);
    expect(() => loadConfig({ SERVICE_AI_LOG_OTEL_CHUNK_SIZE: 'fifty' }, '/tmp')).toThrow(/SERVICE_AI_LOG_OTEL_CHUNK_SIZE must be an integer/);
    expect(() => loadConfig({ SERVICE_AI_LOG_OTEL_ENABLED: 'perhaps' }, '/tmp')).toThrow(/SERVICE_AI_LOG_OTEL_ENABLED must be true or false/);
    expect(() => loadConfig({ SERVICE_AI_LOG_OTEL_ENDPOINT: 'https://u:p@c.example.com/v1/logs' }, '/tmp')).toThrow(/SERVICE_AI_LOG_OTEL_ENDPOINT must not carry credentials/);
    let message = '';
    try {
      loadConfig({ SERVICE_AI_LOG_OTEL_HEADERS: 'authorization=Bearer%zzverysecret' }, '/tmp');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/SERVICE_AI_LOG_OTEL_HEADERS pair 1 \(authorization\) is not correctly percent-encoded/);
    expect(message).not.toContain('verysecret');
  });

  const chain: [string, Record<string, string>, Partial<AiLogExportConfig> | null, string | null, string | null][] = [
    [
      'the service variable first',
      { SERVICE_AI_LOG_OTEL_ENDPOINT: 'http://a:4318/v1/logs', OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://b:4318/v1/logs', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' },
      { otlp_endpoint: 'http://p:4318/v1/logs' },
      'http://a:4318/v1/logs',
      'SERVICE_AI_LOG_OTEL_ENDPOINT',
    ],
    [
      'then the standard logs endpoint',
      { OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://b:4318/v1/logs', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' },
      { otlp_endpoint: 'http://p:4318/v1/logs' },
      'http://b:4318/v1/logs',
      'OTEL_EXPORTER_OTLP_LOGS_ENDPOINT',
    ],
    [
      'then the standard base endpoint plus /v1/logs',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' },
      { otlp_endpoint: 'http://p:4318/v1/logs' },
      'http://c:4318/v1/logs',
      'OTEL_EXPORTER_OTLP_ENDPOINT',
    ],
    ["then the project's override", {}, { otlp_endpoint: 'http://p:4318/v1/logs' }, 'http://p:4318/v1/logs', 'project'],
    ['else none', {}, null, null, null],
  ];

  test.each(chain)('endpoint: %s', (_case, env, own, endpoint, source) => {
    const { view } = resolver({ SERVICE_AI_LOG_OTEL_ENABLED: 'true', ...env }).resolveWith(own ? override(own) : null);
    expect(view.endpoint).toBe(endpoint);
    expect(view.endpoint_source).toBe(source);
    expect(view.enabled).toBe(endpoint !== null);
    expect(view.disabled_reason).toBe(endpoint === null ? 'no_endpoint' : null);
  });

  test("service name: the project's own, then SERVICE_AI_LOG_OTEL_SERVICE_NAME, then OTEL_SERVICE_NAME, then 'service'", () => {
    const env = { SERVICE_AI_LOG_OTEL_SERVICE_NAME: 'baton-prod', OTEL_SERVICE_NAME: 'otel-name' };
    expect(resolver(env).resolveWith(override({ service_name: 'billing' })).view).toMatchObject({ service_name: 'billing', service_name_source: 'project' });
    expect(resolver(env).resolveWith(null).view).toMatchObject({ service_name: 'baton-prod', service_name_source: 'SERVICE_AI_LOG_OTEL_SERVICE_NAME' });
    expect(resolver({ OTEL_SERVICE_NAME: 'otel-name' }).resolveWith(null).view).toMatchObject({ service_name: 'otel-name', service_name_source: 'OTEL_SERVICE_NAME' });
    expect(resolver({}).resolveWith(null).view).toMatchObject({ service_name: 'service', service_name_source: 'default' });
  });

  test('headers: SERVICE_AI_LOG_OTEL_HEADERS, else OTEL_EXPORTER_OTLP_HEADERS; only their names are shown', () => {
    const both = resolver({ SERVICE_AI_LOG_OTEL_HEADERS: 'authorization=Bearer%20one', OTEL_EXPORTER_OTLP_HEADERS: 'x-other=two' }).resolveWith(null);
    expect(both.headers).toEqual({ authorization: 'Bearer one' });
    expect(both.view).toMatchObject({ headers_configured: true, header_names: ['authorization'], headers_source: 'SERVICE_AI_LOG_OTEL_HEADERS' });
    expect(JSON.stringify(both.view)).not.toContain('Bearer one');
    const fallback = resolver({ OTEL_EXPORTER_OTLP_HEADERS: 'x-other=two' }).resolveWith(null);
    expect(fallback.headers).toEqual({ 'x-other': 'two' });
    expect(fallback.view.headers_source).toBe('OTEL_EXPORTER_OTLP_HEADERS');
    expect(resolver({}).resolveWith(null).view).toMatchObject({ headers_configured: false, header_names: [], headers_source: null });
  });

  test("the operator's headers are never sent to a project's own endpoint", () => {
    const env = { SERVICE_AI_LOG_OTEL_HEADERS: 'authorization=Bearer%20one', OTEL_EXPORTER_OTLP_HEADERS: 'x-other=two' };
    const toProject = resolver(env).resolveWith(override({ otlp_endpoint: 'https://tenant.example/v1/logs' }));
    expect(toProject.view).toMatchObject({ endpoint_source: 'project', headers_configured: false, header_names: [], headers_source: null });
    expect(toProject.headers).toEqual({});
    const toOperator = resolver({ ...env, SERVICE_AI_LOG_OTEL_ENDPOINT: 'https://collector.example/v1/logs' }).resolveWith(
      override({ otlp_endpoint: 'https://tenant.example/v1/logs' }),
    );
    expect(toOperator.headers).toEqual({ authorization: 'Bearer one' });
  });

  test("the operator's switch wins over a project's; a project can only switch its own export off", () => {
    const on = { SERVICE_AI_LOG_OTEL_ENABLED: 'true', SERVICE_AI_LOG_OTEL_ENDPOINT: 'http://a:4318/v1/logs' };
    expect(resolver(on).resolveWith(override({ enabled: false })).view).toMatchObject({ enabled: false, disabled_reason: 'project' });
    expect(resolver(on).resolveWith(override({ enabled: true })).view).toMatchObject({ enabled: true, disabled_reason: null });
    const off = { SERVICE_AI_LOG_OTEL_ENDPOINT: 'http://a:4318/v1/logs' };
    expect(resolver(off).resolveWith(override({ enabled: true })).view).toMatchObject({ enabled: false, disabled_reason: 'operator' });
  });

  test('the sink hint is reported when SERVICE_AI_LOG_OTEL_TRACECOLLECTOR_COMPAT is on', () => {
    expect(resolver({ SERVICE_AI_LOG_OTEL_TRACECOLLECTOR_COMPAT: 'true' }).resolveWith(null).view.sink_hint).toBe(true);
  });
});
