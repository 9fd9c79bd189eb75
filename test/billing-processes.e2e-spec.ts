import { billingEvent, deliverBillingEvent } from './support/billing';
import { Receiver } from './support/http-receiver';
import { TestDatabase } from './support/pg-database';
import { startInstances } from './support/instances';
import { ServerProcess } from './support/processes';
import { describePostgres } from './support/suites';
import { sleep, waitUntil } from './support/wait';

const SECRET = 'whsec_two_processes';

/** One webhook event delivered at once to two server processes (the built server) on one database. */
describePostgres('billing webhook on two server processes', () => {
  let db: TestDatabase;
  let mail: Receiver;
  let tenantId: string;
  let servers: ServerProcess[] = [];
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    mail = await Receiver.start();
    // The workspace is made through the app's own control plane, then the two processes serve it.
    const instances = await startInstances(2, {
      env: { BILLING_WEBHOOK_SECRET: SECRET, EMAIL_API_KEY: 're_test_key', SERVICE_EMAIL_API_URL: mail.url },
      tenants: ['two-processes'],
      prepare: async (_setup, database) => {
        await database.query("UPDATE control.tenants SET contact_email = 'billing@two.example.test'");
      },
    });
    stop = instances.stop;
    ({ db, servers } = instances);
    tenantId = instances.tenants[0].tenant_id;
  }, 90_000);
  afterAll(async () => {
    await stop?.();
    await mail?.close();
  });

  test('ten deliveries of one event, split between the processes and sent at once: applied once, one e-mail', async () => {
    const event = billingEvent(`evt_two_${Date.now()}`, 'checkout.session.completed', Math.floor(Date.now() / 1000), {
      object: 'checkout.session',
      client_reference_id: tenantId,
      customer: 'cus_two',
      payment_status: 'paid',
    });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => deliverBillingEvent(servers[i % 2].url, SECRET, event)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.map((a) => a.body.outcome).sort()).toEqual(['applied', ...Array(9).fill('duplicate')]);
    expect(await db.query('SELECT plan, billing_customer_id FROM control.tenants WHERE id = $1', [tenantId])).toEqual([{ plan: 'paid', billing_customer_id: 'cus_two' }]);
    expect(await db.query('SELECT outcome FROM control.billing_events')).toEqual([{ outcome: 'applied' }]);
    await waitUntil(() => mail.at('/emails').length === 1, 5000, 'the plan e-mail');
    await sleep(500);
    expect(mail.at('/emails').map((r) => r.body.to)).toEqual(['billing@two.example.test']);
  });
});
