import { createHmac, randomUUID } from 'node:crypto';
import { freshEmail, signIn, SignedInClient } from './support/accounts';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { hostedEnv, startApp, TestApp } from './support/test-app';

const SECRET = 'marketplace-test-secret';

/** The code-host marketplace's purchase webhook: an HMAC of the raw body, then the same ledger as the payment provider's. */
describePostgres('code-host marketplace webhook', () => {
  let db: TestDatabase;
  let testApp: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url, { CODEHOST_MARKETPLACE_WEBHOOK_SECRET: SECRET }));
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  const planOf = async (person: SignedInClient) => (await person.http.get('/me')).body.workspace.plan as string;

  /** A signed-in owner whose code-host connection is `login`. */
  async function ownerWithLogin(login: string): Promise<SignedInClient> {
    const person = await signIn(testApp, freshEmail(login));
    await db.query(
      `INSERT INTO control.codehost_connections (id, account_id, account_login, scopes, token_sealed, created_at, updated_at) VALUES ($1, $2, $3, 'read:user', 'sealed', now(), now())`,
      [randomUUID(), person.accountId, login],
    );
    return person;
  }

  function purchase(action: string, login: string, cents: number, effective: string) {
    return { action, effective_date: effective, marketplace_purchase: { account: { login, id: 1, type: 'User' }, plan: { id: 7, name: 'Team', monthly_price_in_cents: cents } } };
  }

  async function deliver(body: object | string, options: { secret?: string; delivery?: string; tamper?: boolean } = {}) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const signature = `sha256=${createHmac('sha256', options.secret ?? SECRET)
      .update(raw)
      .digest('hex')}`;
    const res = await fetch(`${testApp.url}/webhooks/codehost-marketplace`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature, 'x-codehost-delivery': options.delivery ?? randomUUID() },
      body: options.tamper ? `${raw} ` : raw,
    });
    return { status: res.status, body: (await res.json()) as { outcome?: string; detail?: string } };
  }

  test('a purchase makes the buyer’s workspace paid; its redelivery changes nothing; a cancellation makes it free', async () => {
    const login = `buyer${Date.now()}`;
    const person = await ownerWithLogin(login);
    const delivery = randomUUID();
    expect((await deliver(purchase('purchased', login, 900, '2026-01-01T00:00:00Z'), { delivery })).body.outcome).toBe('applied');
    expect(await planOf(person)).toBe('paid');
    expect((await deliver(purchase('purchased', login, 900, '2026-01-01T00:00:00Z'), { delivery })).body.outcome).toBe('duplicate');
    // A late, older "changed" does not override the newer cancellation.
    expect((await deliver(purchase('cancelled', login, 900, '2026-03-01T00:00:00Z'))).body.outcome).toBe('applied');
    expect((await deliver(purchase('changed', login, 900, '2026-02-01T00:00:00Z'))).body.outcome).toBe('stale');
    expect(await planOf(person)).toBe('free');
  });

  test.each([
    ['a wrong secret', { secret: 'not-the-secret' }],
    ['a body changed after signing', { tamper: true }],
  ])('%s is refused 400 naming the header, and nothing is applied', async (_case, options) => {
    const login = `forger${Date.now()}`;
    const person = await ownerWithLogin(login);
    const res = await deliver(purchase('purchased', login, 900, new Date().toISOString()), options);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/X-Hub-Signature-256/);
    expect(await planOf(person)).toBe('free');
  });

  test('a missing signature is refused 400; a signed body that is not JSON is refused 400', async () => {
    const res = await fetch(`${testApp.url}/webhooks/codehost-marketplace`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(400);
    const notJson = await deliver('not json at all');
    expect(notJson.status).toBe(400);
    expect(notJson.body.detail).toMatch(/JSON/);
  });

  test('a purchase by an account no workspace knows is answered 200 and changes nothing', async () => {
    const other = await ownerWithLogin(`bystander${Date.now()}`);
    expect((await deliver(purchase('purchased', `nobody${Date.now()}`, 900, new Date().toISOString()))).body.outcome).toBe('unknown_workspace');
    expect(await planOf(other)).toBe('free');
  });
});

describe('code-host marketplace webhook, self-hosted', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await startApp({ CODEHOST_MARKETPLACE_WEBHOOK_SECRET: SECRET });
  });
  afterAll(async () => testApp?.close());

  test('answers 404 with a detail', async () => {
    const res = await fetch(`${testApp.url}/webhooks/codehost-marketplace`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/marketplace webhook/);
  });
});
