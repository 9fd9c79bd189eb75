import { randomUUID } from 'node:crypto';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { sprintClient } from './support/sprint-client';
import { tenantClient } from './support/tenant-client';

describe.each(eachBackend())('sprint gates on %s', (_name, backend) => {
  let run: RunningBackend;
  let api: ReturnType<typeof sprintClient>;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    api = sprintClient(run);
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('GET sprint/gates lists every held item with the reasons a claim meets, and leaves claimable ones out', async () => {
    const projectId = await api.project('Gates');
    const first = await api.item(projectId, { title: 'Lay the foundations' });
    const dependent = await api.item(projectId, { title: 'Build the walls', depends_on: first.id });
    const blocked = await api.item(projectId, { title: 'Wait for the permit', blocker_kind: 'manual' });
    const milestone = await api.item(projectId, { title: 'House is standing', milestone_type: 'milestone' });
    await api.item(projectId, { title: 'Done already' }).then((i) => run.http.post(`/projects/${projectId}/sprint-items/${i.id}/skip`, {}));

    // A file the item touches is locked by a live session: the lock and its holder are named.
    const holder = await api.session(projectId, { name: 'lock-holder' });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      expect((await callTool(client, 'claim_file', { file_path: 'src/locked.ts', session_id: holder.id })).value.claimed).toBe(true);
    } finally {
      await client.close();
    }
    const locked = await api.item(projectId, { title: 'Edit the locked file', touches_resources: ['file:src/locked.ts'], prospect_bypass: 1 });

    const res = await run.http.get(`/projects/${projectId}/sprint/gates`);
    expect(res.status).toBe(200);
    expect(res.body.claimant).toBe('ai');
    expect(res.body.waiting).toBe(5);
    const byId = new Map<string, { gates: { gate: string; detail: string }[] }>(res.body.items.map((i: { item_id: string }) => [i.item_id, i]));
    expect([...byId.keys()].sort()).toEqual([dependent.id, blocked.id, milestone.id, locked.id].sort());
    expect(byId.get(locked.id)!.gates).toEqual([
      expect.objectContaining({ gate: 'file_lock', file_path: 'src/locked.ts', holder_session_id: holder.id, holder_name: 'lock-holder' }),
    ]);
    expect(byId.get(dependent.id)!.gates.map((g) => g.gate)).toEqual(['depends_on']);
    expect(byId.get(dependent.id)!.gates[0].detail).toContain(first.slug);
    expect(byId.get(blocked.id)!.gates.map((g) => g.gate)).toEqual(['blocked']);
    expect(byId.get(milestone.id)!.gates.map((g) => g.gate)).toEqual(['milestone']);

    // A person may claim milestones: for a human claimant the milestone is not held.
    const human = await run.http.get(`/projects/${projectId}/sprint/gates?claimant=human`);
    expect(human.body.items.map((i: { item_id: string }) => i.item_id).sort()).toEqual([dependent.id, blocked.id, locked.id].sort());

    // Once the dependency is done, the dependent item is no longer listed.
    const session = await api.session(projectId);
    expect((await api.claim(projectId, first.id, { session_id: session.id })).body.claimed).toBe(true);
    await run.http.post(`/projects/${projectId}/sprint-items/${first.id}/complete`, { session_id: session.id });
    const after = await run.http.get(`/projects/${projectId}/sprint/gates`);
    expect(after.body.waiting).toBe(4);
    expect(after.body.items.map((i: { item_id: string }) => i.item_id)).not.toContain(dependent.id);
  });

  test('bad input answers 4xx naming the field; an unknown project 404', async () => {
    const projectId = await api.project('Gates input');
    const bad = await run.http.get(`/projects/${projectId}/sprint/gates?claimant=robot`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('claimant');
    const notUuid = await run.http.get('/projects/nope/sprint/gates');
    expect(notUuid.status).toBeGreaterThanOrEqual(400);
    expect(notUuid.status).toBeLessThan(500);
    expect(notUuid.body.detail).toContain('project_id');
    expect((await run.http.get(`/projects/${randomUUID()}/sprint/gates`)).status).toBe(404);
  });
});

describe.each(hostedBackend())('sprint gates across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's project answers 404 like an unknown one", async () => {
    const api = sprintClient(run);
    const projectId = await api.project('Private gates');
    await api.item(projectId, { title: 'Secret', blocker_kind: 'manual' });
    const intruder = (await tenantClient(run.testApp, 'intruder')).http;
    const res = await intruder.get(`/projects/${projectId}/sprint/gates`);
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('Secret');
  });
});
