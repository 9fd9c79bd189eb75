import { loadConfig } from '../config/app-config';
import { byodbHost, postgresOptions, tenantDbLimits } from './data-source-options';

const target = { host: 'db.example.com', address: '93.184.216.34', family: 4 as const, addresses: [{ address: '93.184.216.34', family: 4 as const }] };

describe('BYODB connection options', () => {
  test('a pinned connection goes to the checked address and keeps the name for TLS', () => {
    const options = postgresOptions('postgres://u:p%40ss@db.example.com:6543/app?sslmode=verify-full', 3, false, target) as unknown as {
      url?: string;
      extra: Record<string, unknown>;
    };
    expect(options.url).toBeUndefined();
    expect(options.extra).toMatchObject({ host: '93.184.216.34', port: '6543', user: 'u', password: 'p@ss', database: 'app', connectionString: undefined, max: 3 });
    expect(options.extra.ssl).toMatchObject({ servername: 'db.example.com' });
  });

  test('without TLS no server name is set', () => {
    const options = postgresOptions('postgres://u@db.example.com/app', 1, false, target) as unknown as { extra: Record<string, unknown> };
    expect(options.extra.host).toBe('93.184.216.34');
    expect(options.extra.ssl).toBeFalsy();
  });

  test('byodbHost names the host and refuses file paths, socket directories and other parameters', () => {
    expect(byodbHost('postgres://u@0x7f.1:5432/db')).toBe('0x7f.1');
    expect(byodbHost('postgres://u@[::1]/db?sslmode=require&application_name=x')).toBe('::1');
    expect(() => byodbHost('postgres://u@db.example.com/db?sslrootcert=/etc/passwd')).toThrow(/sslrootcert/);
    expect(() => byodbHost('postgres://u@db.example.com/db?host=/var/run/postgresql')).toThrow(/host/);
    expect(() => byodbHost('postgres:///db')).toThrow(/no network host/);
  });
});

describe('tenant work on Postgres', () => {
  const postgres = { SERVICE_DB_URL: 'postgres://u@db.example.com/app', SERVICE_DATA_DIR: '/tmp' };

  test('SERVICE_DB_PREPARED_STATEMENTS: on by default, off for a pooler that does not track them, anything else refused by name', () => {
    expect(tenantDbLimits(loadConfig(postgres)).preparedStatements).toBe(true);
    expect(tenantDbLimits(loadConfig({ ...postgres, SERVICE_DB_PREPARED_STATEMENTS: 'on' })).preparedStatements).toBe(true);
    expect(tenantDbLimits(loadConfig({ ...postgres, SERVICE_DB_PREPARED_STATEMENTS: 'off' })).preparedStatements).toBe(false);
    expect(() => loadConfig({ ...postgres, SERVICE_DB_PREPARED_STATEMENTS: 'false' })).toThrow(/SERVICE_DB_PREPARED_STATEMENTS must be one of on, off, got "false"/);
  });
});
