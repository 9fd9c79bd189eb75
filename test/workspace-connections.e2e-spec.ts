import { WorkspaceConnection } from '../src/modules/setup/workspace-connection.entity';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { expectRefused } from './support/bad-input';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';

const SECRET = 'xoxb-very-secret-value-1234567890';
const DB_PASSWORD = 'pw-Kq2w9Zr5t8-db';
/** A public address written as one, so the hosted guard has nothing to resolve (the test machine has no DNS). */
const PUBLIC_HOOK = 'https://93.184.215.14/hooks/deploys';

describe.each(eachBackend())("the workspace's named connections on %s", (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('POST /config/connections creates (201) or replaces (200) by name; the secret is sealed at rest and never answered', async () => {
    const created = await run.http.post('/config/connections', { name: 'chat-ops', kind: 'notification', url: PUBLIC_HOOK, secret: SECRET });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      name: 'chat-ops',
      kind: 'notification',
      url: PUBLIC_HOOK,
      has_secret: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const stored = await inTenantDb(run.testApp, run.token, (m) => m.findOneByOrFail(WorkspaceConnection, { name: 'chat-ops' }));
    expect(stored.secret_sealed).toEqual(expect.any(String));
    expect(stored.secret_sealed).not.toContain(SECRET);

    const replaced = await run.http.post('/config/connections', { name: 'chat-ops', kind: 'otlp', url: 'https://93.184.215.14/v1/logs' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ kind: 'otlp', url: 'https://93.184.215.14/v1/logs', has_secret: false, created_at: created.body.created_at });
    const list = await run.http.get('/config/connections');
    expect(list.body.connections).toEqual([replaced.body]);
    expect(list.text).not.toContain(SECRET);
    expect(run.testApp.logs.join('\n')).not.toContain(SECRET);
  });

  test("a database connection's password is taken from its URL, sealed, and never shown again", async () => {
    const url = `postgres://reporter:${encodeURIComponent(DB_PASSWORD)}@93.184.215.14:5432/warehouse`;
    const saved = await run.http.post('/config/connections', { name: 'warehouse', kind: 'database', url });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ kind: 'database', url: 'postgres://reporter@93.184.215.14:5432/warehouse', has_secret: true });
    const stored = await inTenantDb(run.testApp, run.token, (m) => m.findOneByOrFail(WorkspaceConnection, { name: 'warehouse' }));
    expect(JSON.stringify(stored)).not.toContain(DB_PASSWORD);
    const list = await run.http.get('/config/connections');
    expect(list.text).not.toContain(DB_PASSWORD);
    expect(run.testApp.logs.join('\n')).not.toContain(DB_PASSWORD);
    const twice = await run.http.post('/config/connections', { name: 'warehouse', kind: 'database', url, secret: 'another' });
    expect([twice.status, twice.body.detail]).toEqual([400, expect.stringMatching(/^secret: the url already holds a password/)]);
  });

  test('a URL that is itself a secret (a chat webhook, a token in the query) is sealed whole and shown as its origin only', async () => {
    const hook = `https://93.184.215.14/services/hook?token=${SECRET}`;
    const saved = await run.http.post('/config/connections', { name: 'chat-hook', kind: 'notification', url: hook });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ url: 'https://93.184.215.14/[sealed]', has_secret: true });
    const stored = await inTenantDb(run.testApp, run.token, (m) => m.findOneByOrFail(WorkspaceConnection, { name: 'chat-hook' }));
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    expect((await run.http.get('/config/connections')).text).not.toContain(SECRET);
    expect(run.testApp.logs.join('\n')).not.toContain(SECRET);
  });

  test('DELETE /config/connections/{name}: 204, then 404; bad names and bodies are 400 naming the field, nothing changed', async () => {
    await run.http.post('/config/connections', { name: 'to-remove', kind: 'codehost', url: 'https://93.184.215.14/api/v3', secret: SECRET });
    const before = (await run.http.get('/config/connections')).body.connections;
    await expectRefused(
      (body) => run.http.post('/config/connections', body),
      [
        [{ kind: 'notification', url: PUBLIC_HOOK }, /name/],
        [{ name: 'Bad Name', kind: 'notification', url: PUBLIC_HOOK }, /name must be 1 to 63 lowercase/],
        [{ name: 'ok', url: PUBLIC_HOOK }, /kind/],
        [{ name: 'ok', kind: 'slack', url: PUBLIC_HOOK }, /^kind must be one of database, otlp, notification, codehost/],
        [{ name: 'ok', kind: 'notification' }, /url/],
        [{ name: 'ok', kind: 'notification', url: 'not a url' }, /^url must be a URL/],
        [{ name: 'ok', kind: 'notification', url: 'ftp://x.example.test' }, /url must be an http\(s\) URL/],
        [{ name: 'ok', kind: 'database', url: PUBLIC_HOOK }, /^url must be a postgres:\/\/ URL/],
        [{ name: 'ok', kind: 'database', url: 'postgres://u@93.184.215.14/db?sslkey=/etc/key' }, /^url: the connection parameter sslkey is not accepted/],
        [{ name: 'ok', kind: 'notification', url: 'https://user:pass@93.184.215.14/x' }, /^url must not hold credentials/],
        [{ name: 'ok', kind: 'notification', url: `https://93.184.215.14/x?token=${SECRET}`, secret: 'another' }, /^secret: the url is itself a secret/],
        [{ name: 'ok', kind: 'notification', url: PUBLIC_HOOK, secret: 5 }, /secret must be a string/],
        [{ name: 'ok', kind: 'notification', url: PUBLIC_HOOK, password: 'x' }, /password/],
      ],
    );
    const bad = await run.http.delete('/config/connections/Not%20Valid');
    expect([bad.status, bad.body.detail]).toEqual([400, expect.stringMatching(/name/)]);
    expect((await run.http.get('/config/connections')).body.connections).toEqual(before);

    expect((await run.http.delete('/config/connections/to-remove')).status).toBe(204);
    const again = await run.http.delete('/config/connections/to-remove');
    expect([again.status, again.body.detail]).toEqual([404, 'connection not found: to-remove']);
  });
});

describe.each(hostedBackend())('connections across workspaces on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('hosted, every kind of target goes through the outbound guard: internal addresses in any spelling are refused, nothing stored', async () => {
    const cases: [string, string][] = [
      ['database', 'postgres://u:p@127.0.0.1:5432/x'],
      ['database', 'postgres://u:p@10.1.2.3/x'],
      ['otlp', 'http://169.254.169.254/latest/meta-data'],
      ['notification', 'http://2130706433/hook'],
      ['notification', 'http://[::ffff:127.0.0.1]/hook'],
      ['codehost', 'https://192.168.1.10/api/v3'],
      ['notification', 'https://nowhere.invalid/hook'],
    ];
    for (const [kind, url] of cases) {
      const res = await run.http.post('/config/connections', { name: 'internal', kind, url });
      expect([kind, url, res.status, res.body.detail]).toEqual([kind, url, 400, expect.stringMatching(/^url is refused: /)]);
    }
    expect((await run.http.get('/config/connections')).body.connections.map((c: { name: string }) => c.name)).not.toContain('internal');
  });

  test("another workspace neither sees nor removes a workspace's connection", async () => {
    expect((await run.http.post('/config/connections', { name: 'shared-name', kind: 'notification', url: PUBLIC_HOOK, secret: SECRET })).status).toBe(201);
    const other = await tenantClient(run.testApp, 'other-connections');
    expect((await other.http.get('/config/connections')).body.connections).toEqual([]);
    expect((await other.http.delete('/config/connections/shared-name')).status).toBe(404);
    expect((await run.http.get('/config/connections')).body.connections.map((c: { name: string }) => c.name)).toEqual(['shared-name']);
  });
});
