'use strict';
/**
 * Child process of bench/waiters.js: one Baton (built by the compiled app factory, as main.js
 * builds it), alone in its process so that its CPU time and resident memory are its own. It is
 * told its environment and how many tenants to make over IPC, makes them (hosted: a signed-in
 * person's workspace each, half of them on the paid plan, an API token and a project each;
 * self-hosted: one project), answers `{ url, pid, tenants: [{ token, project, plan }] }` and
 * serves until the parent disconnects.
 */
const path = require('node:path');
const { startBaton, request } = require('./servers');

process.once('message', async ({ root, env, tenants }) => {
  try {
    process.env.NODE_ENV = 'production';
    require(path.join(root, 'node_modules', 'reflect-metadata'));
    const baton = await startBaton(root, env);
    const made = [];
    if (env.SERVICE_MODE === 'hosted') {
      const { Accounts } = require(path.join(root, 'dist', 'src', 'modules', 'accounts', 'accounts.service'));
      const { ApiTokens } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'api-tokens.service'));
      const { TenantPlans } = require(path.join(root, 'dist', 'src', 'modules', 'push', 'tenant-plans.service'));
      const { Client } = require(path.join(root, 'node_modules', 'pg'));
      const accounts = baton.app.get(Accounts);
      const tokens = baton.app.get(ApiTokens);
      const plans = baton.app.get(TenantPlans);
      const source = new Client({ connectionString: env.SERVICE_DB_URL });
      await source.connect();
      for (let i = 0; i < tenants; i++) {
        const email = `waiter-${i}@example.test`;
        const { tenantId } = await accounts.signInAs({ provider: 'magic', subject: email, email, emailVerified: true });
        const plan = i % 2 ? 'paid' : 'free';
        if (plan === 'paid') await source.query('UPDATE control.tenants SET plan = $1 WHERE id = $2', [plan, tenantId]);
        const token = await tokens.createToken(tenantId, 'bench');
        const project = (await request('POST', `${baton.url}/projects`, { token, body: { name: `waiters-${i}` }, expect: 201 })).json.id;
        made.push({ token, project, plan, tenantId });
      }
      await source.end();
      // The plans were read while the tenants were made (as free): read them again.
      for (const t of made) plans.forget(t.tenantId);
    } else {
      const project = (await request('POST', `${baton.url}/projects`, { body: { name: 'waiters' }, expect: 201 })).json.id;
      made.push({ token: undefined, project, plan: 'self-hosted' });
    }
    const { PushService } = require(path.join(root, 'dist', 'src', 'modules', 'push', 'push.service'));
    const push = baton.app.get(PushService);
    // The parent asks how many requests wait, without an HTTP request of its own in the figures.
    process.on('message', (m) => {
      if (m === 'waiting') process.send({ waiting: push.registry.waiting });
    });
    process.send({ url: baton.url, pid: process.pid, tenants: made });
    process.once('disconnect', () => {
      baton
        .close()
        .catch(() => undefined)
        .finally(() => process.exit(0));
    });
  } catch (error) {
    process.send({ error: error instanceof Error ? error.stack : String(error) });
    process.exit(1);
  }
});
