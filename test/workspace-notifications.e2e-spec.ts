import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { expectRefused } from './support/bad-input';
import { Receiver } from './support/http-receiver';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';
import { waitUntil } from './support/wait';

describe.each(eachBackend())('workspace notification defaults on %s', (_name, backend) => {
  let run: RunningBackend;
  let hook: Receiver;

  beforeAll(async () => {
    hook = await Receiver.start();
    run = await backend.start({ SERVICE_NOTIFY_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await run?.stop();
    await hook?.close();
  });

  test('GET /settings/notifications is empty until set; PATCH changes only the fields given, null clears', async () => {
    expect((await run.http.get('/settings/notifications')).body).toEqual({ notify_url: null, notify_email: null, updated_at: null });
    const set = await run.http.patch('/settings/notifications', { notify_email: 'team@example.test' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ notify_url: null, notify_email: 'team@example.test', updated_at: expect.any(String) });
    expect((await run.http.patch('/settings/notifications', {})).body.notify_email).toBe('team@example.test');
    expect((await run.http.patch('/settings/notifications', { notify_email: null })).body.notify_email).toBeNull();
    expect((await run.http.patch('/settings/notifications', { notify_email: 'team@example.test' })).body.notify_email).toBe('team@example.test');
  });

  test('bad input is 400 naming the field, and changes nothing', async () => {
    const before = (await run.http.get('/settings/notifications')).body;
    await expectRefused(
      (body) => run.http.patch('/settings/notifications', body),
      [
        [{ notify_email: 'nope' }, /notify_email must be an e-mail address/],
        [{ notify_email: 5 }, /notify_email/],
        [{ notify_url: 'ftp://example.test/x' }, /notify_url must be an http\(s\) URL/],
        [{ notify_url: 'https://user:pw@example.test/' }, /notify_url must not carry credentials/],
        [{ colour: 'red' }, /colour/],
      ],
    );
    expect((await run.http.get('/settings/notifications')).body).toEqual(before);
  });

  test("a project without its own target notifies the workspace's; its own target comes first", async () => {
    const target = `${hook.url}/workspace`;
    const set = await run.http.patch('/settings/notifications', { notify_url: target });
    if (run.token) {
      // Hosted: a target on this machine is refused, as for a project's own.
      expect([set.status, set.body.detail]).toEqual([400, expect.stringMatching(/notify_url|private|loopback|address/i)]);
      return;
    }
    expect(set.status).toBe(200);
    const plain = await createProject(run.http, 'Uses workspace default');
    expect((await run.http.post(`/projects/${plain}/notify/test`)).body.url).toBe('delivered');
    await waitUntil(() => hook.at('/workspace').length === 1, 5000, 'the workspace target');
    expect(hook.at('/workspace')[0].body).toMatchObject({ event: 'notify_test', project_id: plain });

    const own = await createProject(run.http, 'Has its own');
    await run.http.patch(`/projects/${own}/ntfy`, { notify_url: `${hook.url}/own` });
    expect((await run.http.post(`/projects/${own}/notify/test`)).body.url).toBe('delivered');
    expect(hook.at('/own')).toHaveLength(1);
    expect(hook.at('/workspace')).toHaveLength(1);
  });
});

describe.each(hostedBackend())('workspace notification defaults across workspaces on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("one workspace's defaults are not another's", async () => {
    expect((await run.http.patch('/settings/notifications', { notify_email: 'a-team@example.test' })).status).toBe(200);
    const other = await tenantClient(run.testApp, 'other-notify');
    expect((await other.http.get('/settings/notifications')).body).toEqual({ notify_url: null, notify_email: null, updated_at: null });
    expect((await run.http.get('/settings/notifications')).body.notify_email).toBe('a-team@example.test');
  });
});
