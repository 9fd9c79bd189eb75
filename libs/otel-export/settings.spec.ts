import { backoffDelayMs } from './backoff';
import { checkEndpoint, clampedSetting, effectiveNumbers, EXPORT_LIMITS, ExportNumbers, logsEndpointFromBase, otlpHeaders } from './settings';

describe('export settings clamps (service spec §8)', () => {
  // variable, raw value, effective value
  const table: [keyof ExportNumbers, string, number][] = [
    ['batchSize', '200', 200],
    ['batchSize', '0', 1],
    ['batchSize', '-5', 1],
    ['batchSize', '1000', 1000],
    ['batchSize', '5000', 1000],
    ['chunkSize', '50', 50],
    ['chunkSize', '0', 1],
    ['chunkSize', '201', 200],
    ['maxRetries', '-1', 0],
    ['maxRetries', '0', 0],
    ['maxRetries', '11', 10],
    ['maxRetries', '3', 3],
    ['backoffBaseS', '0.01', 0.05],
    ['backoffBaseS', '0.5', 0.5],
    ['backoffBaseS', '11', 10],
    ['backoffBaseS', '1e-3', 0.05],
    ['timeoutS', '0', 1],
    ['timeoutS', '0.5', 1],
    ['timeoutS', '5.0', 5],
    ['timeoutS', '31', 30],
    ['totalDeadlineS', '0', 1],
    ['totalDeadlineS', '20', 20],
    ['totalDeadlineS', '61', 60],
    ['totalDeadlineS', '3600', 60],
  ];

  test.each(table)('%s=%s is used as %d', (key, raw, expected) => {
    expect(clampedSetting(EXPORT_LIMITS[key])(raw)).toBe(expected);
  });

  test.each([
    ['batchSize', 'lots'],
    ['batchSize', '12.5'],
    ['chunkSize', ''],
    ['backoffBaseS', 'fast'],
    ['timeoutS', '1s'],
  ] as [keyof ExportNumbers, string][])('%s=%j is refused with a reason naming what was expected', (key, raw) => {
    expect(() => clampedSetting(EXPORT_LIMITS[key])(raw)).toThrow(/must be (an integer|a number)/);
  });

  test('the spec defaults are the variables defaults', () => {
    expect(Object.fromEntries(Object.entries(EXPORT_LIMITS).map(([k, v]) => [k, v.default]))).toEqual({
      batchSize: 200,
      chunkSize: 50,
      maxRetries: 3,
      backoffBaseS: 0.5,
      timeoutS: 5,
      totalDeadlineS: 20,
    });
  });

  test('the chunk is never larger than the batch, and values given in code are clamped too', () => {
    const n = effectiveNumbers({ batchSize: 20, chunkSize: 150, maxRetries: 99, backoffBaseS: 0, timeoutS: 100, totalDeadlineS: 0 });
    expect(n).toEqual({ batchSize: 20, chunkSize: 20, maxRetries: 10, backoffBaseS: 0.05, timeoutS: 30, totalDeadlineS: 1 });
  });
});

describe('export endpoint and headers', () => {
  test('an endpoint is an http(s) URL without credentials', () => {
    expect(checkEndpoint('https://collector.example.com:4318/v1/logs/')).toBe('https://collector.example.com:4318/v1/logs');
    expect(() => checkEndpoint('ftp://x/v1/logs')).toThrow(/http/);
    expect(() => checkEndpoint('not a url')).toThrow(/absolute/);
    expect(() => checkEndpoint('https://user:pw@collector.example.com/v1/logs')).toThrow(/credentials/);
    expect(() => checkEndpoint('https://collector.example.com/v1/logs?api_key=abc')).toThrow(/api_key/);
    expect(() => checkEndpoint('https://collector.example.com/sk_service_abcdefghijklmnopqrstuvwxyz/v1/logs')).toThrow(/credentials/);
    // The message never repeats the value.
    try {
      checkEndpoint('https://user:hunter2@collector.example.com/v1/logs');
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  test('OTEL_EXPORTER_OTLP_ENDPOINT is a base: /v1/logs is appended', () => {
    expect(logsEndpointFromBase('http://c:4318')).toBe('http://c:4318/v1/logs');
    expect(logsEndpointFromBase('http://c:4318/otlp/')).toBe('http://c:4318/otlp/v1/logs');
  });

  test('headers are comma-separated key=value pairs with percent-encoded values', () => {
    expect(otlpHeaders('authorization=Bearer%20abc%3D%3D, x-tenant = blue ,')).toEqual({ authorization: 'Bearer abc==', 'x-tenant': 'blue' });
    expect(otlpHeaders('')).toEqual({});
    expect(() => otlpHeaders('novalue')).toThrow(/pair 1 must be key=value/);
    expect(() => otlpHeaders('a=1,bad name=2')).toThrow(/pair 2 has an invalid header name/);
    expect(() => otlpHeaders('authorization=%E0%A4%A')).toThrow(/pair 1 \(authorization\) is not correctly percent-encoded/);
    expect(() => otlpHeaders('x=a%0Db')).toThrow(/line break/);
    try {
      otlpHeaders('authorization=%zzsecret');
    } catch (error) {
      expect((error as Error).message).not.toContain('secret');
    }
  });
});

describe('backoff', () => {
  test('each delay is longer than the one before, whatever the jitter', () => {
    for (const [r1, r2] of [
      [0.999, 0],
      [0, 0],
      [0.5, 0.5],
    ]) {
      const delays = [0, 1, 2, 3, 4].map((retry) => backoffDelayMs(0.5, retry, () => (retry % 2 ? r2 : r1)));
      for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]);
    }
    expect(backoffDelayMs(0.5, 0, () => 0)).toBe(500);
    expect(backoffDelayMs(0.5, 2, () => 0)).toBe(2000);
    expect(backoffDelayMs(0.5, 0, () => 0.999)).toBeLessThanOrEqual(750);
  });
});
