import type { DataSource } from 'typeorm';
import { serverKeyOf, TenantServers, UnknownTenantServerError } from './tenant-servers';

const CONTROL = 'postgres://baton:control-pw@db.internal:5432/baton';
const A = 'postgres://baton:a-pw@Tenants-A.internal/baton?sslmode=require';
const B = 'postgresql://baton:b-pw@tenants-b.internal:6432/tenants';
const shared = { name: 'the shared pool' } as unknown as DataSource;
const servers = (urls: string[]) => new TenantServers(shared, CONTROL, urls, () => ({ type: 'postgres' }));

describe('serverKeyOf', () => {
  test('is host, port and database: lower-cased host, default port 5432, never the credentials or parameters', () => {
    expect(serverKeyOf(A)).toBe('tenants-a.internal:5432/baton');
    expect(serverKeyOf(B)).toBe('tenants-b.internal:6432/tenants');
    expect(serverKeyOf('postgres://other:rotated@TENANTS-A.internal:5432/baton')).toBe(serverKeyOf(A));
  });

  test('a URL without a database names the user’s database, as Postgres does', () => {
    expect(serverKeyOf('postgres://alice:pw@h:5433')).toBe('h:5433/alice');
  });
});

describe('TenantServers', () => {
  test('with no server named, every tenant goes to the control plane’s database (placement null)', () => {
    const s = servers([]);
    expect(s.list()).toEqual([{ key: 'db.internal:5432/baton', url: CONTROL, control: true, placeable: true }]);
    expect(s.placeable().map((x) => s.placementOf(x.key))).toEqual([null]);
  });

  test('named servers take new tenants, the control plane’s database only when listed; each keeps its place in the list', () => {
    const apart = servers([A, B]);
    expect(apart.list().map((x) => [x.key, x.control, x.placeable, x.place])).toEqual([
      ['db.internal:5432/baton', true, false, undefined],
      ['tenants-a.internal:5432/baton', false, true, 1],
      ['tenants-b.internal:6432/tenants', false, true, 2],
    ]);
    const among = servers([A, CONTROL.replace('control-pw', 'other-pw'), B]);
    expect(among.list().map((x) => [x.key, x.control, x.placeable, x.place])).toEqual([
      ['db.internal:5432/baton', true, true, 2],
      ['tenants-a.internal:5432/baton', false, true, 1],
      ['tenants-b.internal:6432/tenants', false, true, 3],
    ]);
    expect(among.placeable().map((x) => among.placementOf(x.key))).toEqual([null, 'tenants-a.internal:5432/baton', 'tenants-b.internal:6432/tenants']);
  });

  test('the control plane’s placement is the shared pool; a key the configuration does not name is refused by name, without opening anything', async () => {
    const s = servers([A]);
    await expect(s.source(null)).resolves.toBe(shared);
    await expect(s.source('db.internal:5432/baton')).resolves.toBe(shared);
    const refused = await s.source('gone.internal:5432/baton').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnknownTenantServerError);
    expect(refused).toMatchObject({ code: 'DATABASE_NOT_CONFIGURED', key: 'gone.internal:5432/baton' });
    expect(s.open()).toEqual(new Map([['db.internal:5432/baton', shared]]));
  });
});
