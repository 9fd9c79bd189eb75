import { freshEmail, signIn, SignedInClient } from './support/accounts';
import { billingEvent, deliverBillingEvent, formOf, paymentApiStandIn } from './support/billing';
import { Http } from './support/http';
import { Receiver } from './support/http-receiver';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';

const SECRET = 'whsec_test_checkout';
const PAYMENT_LINK = 'https://pay.example.test/b/link_123';

/** Upgrading and the customer portal, against a local stand-in of the payment API reached through the SDK's host settings. */
describePostgres('checkout and the billing portal', () => {
  let db: TestDatabase;
  let api: Receiver;
  let withKey: TestApp;
  let linkOnly: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    api = await paymentApiStandIn();
    withKey = await startApp(
      hostedEnv(db.url, { BILLING_SECRET_KEY: 'sk_test_baton', BILLING_PRICE_ID: 'price_paid', SERVICE_BILLING_API_URL: api.url, BILLING_WEBHOOK_SECRET: SECRET }),
    );
    linkOnly = await startApp(hostedEnv(db.url, { BILLING_PAYMENT_LINK: PAYMENT_LINK }));
  });
  afterAll(async () => {
    await linkOnly?.close();
    await withKey?.close();
    await api?.close();
    await db?.drop();
  });

  const onApp = (testApp: TestApp, person: SignedInClient) => new Http(testApp.url).withHeaders({ cookie: person.cookie, origin: testApp.url });

  test('GET /checkout with a secret key opens a checkout session carrying the workspace id, and redirects to it', async () => {
    const email = freshEmail('buyer');
    const person = await signIn(withKey, email);
    const res = await person.http.get('/checkout');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://pay.example.test/c/cs_test_1');
    const sent = api.at('/v1/checkout/sessions');
    const form = formOf(sent[sent.length - 1].body);
    expect(form).toMatchObject({
      mode: 'subscription',
      client_reference_id: person.tenantId,
      'metadata[workspace_id]': person.tenantId,
      'subscription_data[metadata][workspace_id]': person.tenantId,
      'line_items[0][price]': 'price_paid',
      customer_email: email,
    });
    expect(sent[sent.length - 1].headers.authorization).toBe('Bearer sk_test_baton');
  });

  test('GET /checkout without a secret key sends the person to the payment link with the workspace as client_reference_id', async () => {
    const email = freshEmail('linker');
    const person = await signIn(linkOnly, email);
    const res = await onApp(linkOnly, person).get('/checkout');
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(PAYMENT_LINK);
    expect(location.searchParams.get('client_reference_id')).toBe(person.tenantId);
    expect(location.searchParams.get('prefilled_email')).toBe(email);
  });

  test('the portal needs a subscription first (409), then GET redirects to it and POST answers {url} for that customer only', async () => {
    const person = await signIn(withKey, freshEmail('portal'));
    const other = await signIn(withKey, freshEmail('portal-other'));
    const before = await person.http.post('/billing/portal');
    expect(before.status).toBe(409);
    expect(before.body).toMatchObject({ code: 'NO_SUBSCRIPTION', detail: expect.stringMatching(/checkout/) });

    const paid = billingEvent(`evt_portal_${Date.now()}`, 'checkout.session.completed', Math.floor(Date.now() / 1000), {
      object: 'checkout.session',
      client_reference_id: person.tenantId,
      customer: 'cus_portal_1',
      subscription: 'sub_portal_1',
      payment_status: 'paid',
    });
    expect((await deliverBillingEvent(withKey.url, SECRET, paid)).body.outcome).toBe('applied');

    const post = await person.http.post('/billing/portal');
    expect(post).toMatchObject({ status: 200, body: { url: 'https://pay.example.test/p/bps_test_1' } });
    const get = await person.http.get('/billing/portal');
    expect(get.status).toBe(303);
    expect(get.headers.get('location')).toBe('https://pay.example.test/p/bps_test_1');
    const sent = api.at('/v1/billing_portal/sessions');
    expect(sent.map((r) => formOf(r.body).customer)).toEqual(['cus_portal_1', 'cus_portal_1']);
    // Another workspace does not reach this customer.
    expect((await other.http.post('/billing/portal')).status).toBe(409);
    expect(api.at('/v1/billing_portal/sessions')).toHaveLength(2);
  });

  test("a workspace's API token is refused 403: billing needs a signed-in owner or admin", async () => {
    const { http } = await tenantClient(withKey, 'token-only');
    for (const res of [await http.get('/checkout'), await http.get('/billing/portal'), await http.post('/billing/portal')]) {
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatch(/signed-in owner or admin/);
    }
  });

  test('a member who is neither owner nor admin is refused 403, and the payment API is not called', async () => {
    const person = await signIn(withKey, freshEmail('member'));
    await db.query("UPDATE control.memberships SET role = 'member' WHERE account_id = $1", [person.accountId]);
    const calls = api.requests.length;
    for (const res of [await person.http.get('/checkout'), await person.http.post('/billing/portal')]) {
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatch(/your role in this workspace does not allow managing its billing/);
    }
    expect(api.requests).toHaveLength(calls);
  });

  test('without credentials the routes answer 401', async () => {
    const anonymous = new Http(withKey.url);
    expect((await anonymous.get('/checkout')).status).toBe(401);
    expect((await anonymous.post('/billing/portal')).status).toBe(401);
  });

  test('the payment link server has no portal: 404 naming what is missing', async () => {
    const person = await signIn(linkOnly, freshEmail('no-portal'));
    const res = await onApp(linkOnly, person).post('/billing/portal');
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/BILLING_SECRET_KEY/);
  });

  test('when the payment API fails, checkout answers 502 with a detail and redirects nowhere', async () => {
    const person = await signIn(withKey, freshEmail('down'));
    api.status = 500;
    try {
      const res = await person.http.get('/checkout');
      expect(res.status).toBe(502);
      expect(res.body.detail).toMatch(/payment provider/);
    } finally {
      api.status = 200;
    }
  });
});

/** A self-hosted Baton has no billing: the routes answer 404. */
describe('checkout and the billing portal, self-hosted', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await startApp({ BILLING_PAYMENT_LINK: PAYMENT_LINK });
  });
  afterAll(async () => testApp?.close());

  test.each([
    ['GET', '/checkout'],
    ['GET', '/billing/portal'],
    ['POST', '/billing/portal'],
  ])('%s %s answers 404 with a detail', async (method, path) => {
    const res = await new Http(testApp.url).send(method, path);
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/hosted mode only/);
  });
});
