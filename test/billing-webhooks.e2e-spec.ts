import Stripe from 'stripe';
import { freshEmail, signIn, SignedInClient } from './support/accounts';
import { billingEvent, deliverBillingEvent } from './support/billing';
import { Receiver } from './support/http-receiver';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { startApp, hostedEnv, TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

const SECRET = 'whsec_test_billing_secret';
const now = () => Math.floor(Date.now() / 1000);

/** The payment provider's webhook on a hosted Baton: signatures on the raw body, each event once, newest state wins. */
describePostgres('billing webhook', () => {
  let db: TestDatabase;
  let mail: Receiver;
  let first: TestApp;
  let second: TestApp;
  let seq = 0;

  beforeAll(async () => {
    db = await TestDatabase.create();
    mail = await Receiver.start();
    const env = hostedEnv(db.url, { BILLING_WEBHOOK_SECRET: SECRET, EMAIL_API_KEY: 're_test_key', SERVICE_EMAIL_API_URL: mail.url });
    first = await startApp(env);
    // A second instance on the same database: redeliveries may land on either.
    second = await startApp(env);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await mail?.close();
    await db?.drop();
  });

  const planOf = async (person: SignedInClient) => (await person.http.get('/me')).body.workspace.plan as string;
  const lettersTo = (to: string) => mail.at('/emails').filter((r) => [r.body.to].flat().includes(to));
  const eventCount = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM control.billing_events'))[0].n);
  const nextId = (kind: string) => `evt_${kind}_${++seq}_${Date.now()}`;

  function checkoutCompleted(id: string, workspaceId: string, created = now()) {
    return billingEvent(id, 'checkout.session.completed', created, {
      id: `cs_${id}`,
      object: 'checkout.session',
      client_reference_id: workspaceId,
      customer: `cus_${workspaceId.slice(0, 8)}`,
      subscription: `sub_${workspaceId.slice(0, 8)}`,
      payment_status: 'paid',
      metadata: { workspace_id: workspaceId },
    });
  }

  function subscription(id: string, type: string, workspaceId: string, status: string, created: number) {
    return billingEvent(id, type, created, {
      id: `sub_${workspaceId.slice(0, 8)}`,
      object: 'subscription',
      customer: `cus_${workspaceId.slice(0, 8)}`,
      status,
      metadata: { workspace_id: workspaceId },
    });
  }

  test.each([
    ['a forged signature', { header: `t=${now()},v1=${'0'.repeat(64)}` }],
    ['a wrong secret', { secret: 'whsec_someone_else' }],
    ['a timestamp older than the tolerance (300 s)', { timestamp: now() - 301 }],
    ['a body changed after signing', { tamper: (p: string) => p.replace('"paid"', '"paid" ') }],
    ['a garbage header', { header: 'not a signature' }],
  ])('%s is refused 400 naming the header, and nothing is applied', async (_case, delivery) => {
    const person = await signIn(first, freshEmail('forged'));
    const before = await eventCount();
    const res = await deliverBillingEvent(first.url, SECRET, checkoutCompleted(nextId('forged'), person.tenantId), delivery);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/Stripe-Signature/);
    expect(await planOf(person)).toBe('free');
    expect(await eventCount()).toBe(before);
    await sleep(100);
    expect(lettersTo((await person.http.get('/me')).body.account.email)).toHaveLength(0);
  });

  test('a request without a signature header is refused 400', async () => {
    const res = await fetch(`${first.url}/webhooks/billing`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/Stripe-Signature/);
  });

  test('a correctly signed body that is not JSON is refused 400 naming the body', async () => {
    const payload = 'not json';
    const header = new Stripe('sk_test_signing_only').webhooks.generateTestHeaderString({ payload, secret: SECRET });
    const res = await fetch(`${first.url}/webhooks/billing`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^body: .*JSON/);
  });

  test('the same checkout event delivered five times moves the plan once and sends one e-mail', async () => {
    const email = freshEmail('payer');
    const person = await signIn(first, email);
    const event = checkoutCompleted(nextId('checkout'), person.tenantId);
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await deliverBillingEvent(first.url, SECRET, event);
      expect(res.status).toBe(200);
      outcomes.push(res.body.outcome);
    }
    expect(outcomes).toEqual(['applied', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect(await planOf(person)).toBe('paid');
    await waitUntil(() => lettersTo(email).length === 1, 5000, 'the plan e-mail');
    await sleep(300);
    expect(lettersTo(email)).toHaveLength(1);
    expect(lettersTo(email)[0].body.subject).toMatch(/paid plan/);
  });

  test('the same event delivered concurrently to two instances on one database is applied once, with one e-mail', async () => {
    const email = freshEmail('racer');
    const person = await signIn(first, email);
    const event = checkoutCompleted(nextId('race'), person.tenantId);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => deliverBillingEvent((i % 2 ? second : first).url, SECRET, event)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((a) => a.body.outcome === 'applied')).toHaveLength(1);
    expect(answers.filter((a) => a.body.outcome === 'duplicate')).toHaveLength(9);
    expect(await planOf(person)).toBe('paid');
    await waitUntil(() => lettersTo(email).length === 1, 5000, 'the plan e-mail');
    await sleep(300);
    expect(lettersTo(email)).toHaveLength(1);
  });

  test('events delivered out of order end in the newest state: a late "active" does not revive a deleted subscription', async () => {
    const person = await signIn(first, freshEmail('late'));
    const t = now();
    const created = subscription(nextId('sub'), 'customer.subscription.created', person.tenantId, 'active', t - 30);
    const pastDue = subscription(nextId('sub'), 'customer.subscription.updated', person.tenantId, 'past_due', t - 20);
    const deleted = subscription(nextId('sub'), 'customer.subscription.deleted', person.tenantId, 'canceled', t - 10);
    expect((await deliverBillingEvent(first.url, SECRET, deleted)).body.outcome).toBe('applied');
    expect((await deliverBillingEvent(second.url, SECRET, created)).body.outcome).toBe('stale');
    expect((await deliverBillingEvent(first.url, SECRET, pastDue)).body.outcome).toBe('stale');
    expect(await planOf(person)).toBe('free');
    const [row] = await db.query<{ billing_status: string }>('SELECT billing_status FROM control.tenants WHERE id = $1', [person.tenantId]);
    expect(row.billing_status).toBe('canceled');
  });

  test('in order, a subscription goes paid, survives a retried payment failure, and ends free on the last failure', async () => {
    const person = await signIn(first, freshEmail('ordered'));
    const t = now();
    await deliverBillingEvent(first.url, SECRET, subscription(nextId('sub'), 'customer.subscription.created', person.tenantId, 'active', t - 40));
    expect(await planOf(person)).toBe('paid');
    const invoice = (id: string, created: number, nextAttempt: number | null) =>
      billingEvent(id, 'invoice.payment_failed', created, { id: `in_${id}`, object: 'invoice', customer: `cus_${person.tenantId.slice(0, 8)}`, next_payment_attempt: nextAttempt });
    expect((await deliverBillingEvent(first.url, SECRET, invoice(nextId('inv'), t - 30, t + 86_400))).body.outcome).toBe('applied');
    expect(await planOf(person)).toBe('paid');
    expect((await deliverBillingEvent(first.url, SECRET, invoice(nextId('inv'), t - 20, null))).body.outcome).toBe('applied');
    expect(await planOf(person)).toBe('free');
  });

  test('an event naming another workspace changes only that one; an unknown workspace is answered 200 and changes nothing', async () => {
    const a = await signIn(first, freshEmail('ws-a'));
    const b = await signIn(first, freshEmail('ws-b'));
    await deliverBillingEvent(first.url, SECRET, checkoutCompleted(nextId('a'), a.tenantId));
    expect(await planOf(a)).toBe('paid');
    expect(await planOf(b)).toBe('free');
    const unknown = await deliverBillingEvent(first.url, SECRET, checkoutCompleted(nextId('x'), '00000000-0000-4000-8000-000000000000'));
    expect(unknown).toEqual({ status: 200, body: { received: true, outcome: 'unknown_workspace' } });
    const notAnId = await deliverBillingEvent(first.url, SECRET, checkoutCompleted(nextId('x'), "'; DROP TABLE tenants; --"));
    expect(notAnId.body.outcome).toBe('unknown_workspace');
    expect(await planOf(b)).toBe('free');
  });

  test('an event kind Baton does not act on is stored once and answered "ignored"', async () => {
    const event = billingEvent(nextId('other'), 'customer.created', now(), { id: 'cus_other', object: 'customer' });
    expect((await deliverBillingEvent(first.url, SECRET, event)).body.outcome).toBe('ignored');
    expect((await deliverBillingEvent(first.url, SECRET, event)).body.outcome).toBe('duplicate');
  });
});

/** A self-hosted Baton has no billing: the webhook is not there. */
describe('billing webhook, self-hosted', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await startApp({ BILLING_WEBHOOK_SECRET: SECRET });
  });
  afterAll(async () => testApp?.close());

  test('answers 404 with a detail', async () => {
    const res = await deliverBillingEvent(testApp.url, SECRET, billingEvent('evt_1', 'checkout.session.completed', now(), {}));
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/billing webhook/);
  });
});
