import { SprintItem } from '../src/modules/sprint/sprint-item.entity';
import { eachBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { sprintClient } from './support/sprint-client';
import { inTenantDb } from './support/tenant-db';

describe.each(eachBackend())('assign_sprint_waves on %s', (_name, backend) => {
  let run: RunningBackend;
  let api: ReturnType<typeof sprintClient>;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    api = sprintClient(run);
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('a 6-item DAG: each item after the waves of what it depends on, no two items touching one resource in a wave', async () => {
    const projectId = await api.project('Six Item DAG');
    //   A ─┬─ C ── E        B ── F
    //      └─ D (touches C's file too)
    const add = (title: string, files: string[], dependsOn?: string) =>
      api.item(projectId, { title, touches_resources: files.map((f) => `file:${f}`), ...(dependsOn ? { depends_on: dependsOn } : {}) });
    const a = await add('Alpha schema', ['db/schema.sql']);
    const b = await add('Bravo config', ['config/app.yml']);
    const c = await add('Charlie model', ['src/model.ts'], a.id);
    const d = await add('Delta migration', ['db/migrate.sql', 'src/model.ts'], a.id);
    const e = await add('Echo endpoint', ['src/api.ts'], c.id);
    const f = await add('Foxtrot loader', ['src/config-loader.ts'], b.id);
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const result = await callTool(client, 'assign_sprint_waves', { project_id: projectId });
      expect(result.isError).toBe(false);
      expect(result.value).toEqual({
        version: null,
        wave_count: 3,
        assigned: 6,
        blocked_count: 0,
        undeclared_count: 0,
        waves: [
          { wave: 'wave-1', items: [a, b].map((i) => ({ id: i.id, slug: i.slug, title: i.title })) },
          { wave: 'wave-2', items: [c, f].map((i) => ({ id: i.id, slug: i.slug, title: i.title })) },
          { wave: 'wave-3', items: [d, e].map((i) => ({ id: i.id, slug: i.slug, title: i.title })) },
        ],
      });
    } finally {
      await client.close();
    }
    const waves = Object.fromEntries(
      ((await run.http.get(`/projects/${projectId}/sprint-items`)).body as { title: string; wave: string }[]).map((i) => [i.title.split(' ')[0], i.wave]),
    );
    expect(waves).toEqual({ Alpha: 'wave-1', Bravo: 'wave-1', Charlie: 'wave-2', Foxtrot: 'wave-2', Delta: 'wave-3', Echo: 'wave-3' });
    // Running it again over the same plan gives the same waves.
    const again = await run.http.post(`/projects/${projectId}/sprint/assign-waves`, {});
    expect(again.status).toBe(200);
    expect(again.body.waves.map((w: { wave: string; items: unknown[] }) => [w.wave, w.items.length])).toEqual([
      ['wave-1', 2],
      ['wave-2', 2],
      ['wave-3', 2],
    ]);
  });

  test('a dependency cycle is refused with a clear detail, and no wave is written', async () => {
    const projectId = await api.project('Cycle');
    const a = await api.item(projectId, { title: 'Alpha build step' });
    const b = await api.item(projectId, { title: 'Bravo packaging', depends_on: a.id });
    const c = await api.item(projectId, { title: 'Gamma publishing', depends_on: b.id });
    // Baton refuses to write a cycle (PATCH answers 409); one can still come from data written before that rule.
    expect((await run.http.patch(`/projects/${projectId}/sprint-items/${a.id}`, { depends_on: c.id })).body.code).toBe('DEPENDENCY_CYCLE');
    await inTenantDb(run.testApp, run.token, (m) => m.update(SprintItem, { id: a.id }, { depends_on: c.id }));
    const refused = await run.http.post(`/projects/${projectId}/sprint/assign-waves`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('DEPENDENCY_CYCLE');
    expect(refused.body.detail).toBe(`dependency cycle: ${a.slug} -> ${c.slug} -> ${b.slug} -> ${a.slug}`);
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const viaTool = await callTool(client, 'assign_sprint_waves', { project_id: projectId });
      expect(viaTool.isError).toBe(true);
      expect(viaTool.text).toMatch(/^dependency cycle: /);
    } finally {
      await client.close();
    }
    const items = (await run.http.get(`/projects/${projectId}/sprint-items`)).body as { wave: string | null }[];
    expect(items.every((i) => i.wave === null)).toBe(true);
  });

  test('an undeclared item joins the first wave after its dependencies; items behind a blocker are counted as blocked; a version limits the plan', async () => {
    const projectId = await api.project('Waves Misc');
    const manual = await api.item(projectId, { title: 'Sign the vendor contract', blocker_kind: 'manual' });
    const blocked = await api.item(projectId, { title: 'Integrate the vendor SDK', depends_on: manual.id, touches_resources: ['file:src/vendor.ts'] });
    const x = await api.item(projectId, { title: 'Tidy the logs', touches_resources: ['file:src/log.ts'] });
    const y = await api.item(projectId, { title: 'Unknown footprint chore' });
    const z = await api.item(projectId, { title: 'Tidy the metrics', touches_resources: ['file:src/metrics.ts'] });
    const other = await api.item(projectId, { title: 'Next release work', version: 'v2', touches_resources: ['file:src/next.ts'] });
    const result = (await run.http.post(`/projects/${projectId}/sprint/assign-waves`, { version: 'v1' })).body;
    expect(result).toMatchObject({ version: 'v1', wave_count: 1, assigned: 3, blocked_count: 1, undeclared_count: 1 });
    expect(result.waves.map((w: { items: { id: string }[] }) => w.items.map((i) => i.id))).toEqual([[x.id, y.id, z.id]]);
    expect((await api.get(projectId, blocked.id)).body.wave).toBeNull();
    expect((await api.get(projectId, manual.id)).body.wave).toBeNull();
    expect((await api.get(projectId, other.id)).body.wave).toBeNull();
  });

  test('items declaring no resources share waves: each takes the first wave after what it depends on, beside declared items', async () => {
    const projectId = await api.project('Undeclared Share');
    const a = await api.item(projectId, { title: 'Alpha undeclared chore' });
    const b = await api.item(projectId, { title: 'Bravo undeclared tidy' });
    const c = await api.item(projectId, { title: 'Charlie parser work', touches_resources: ['file:src/x.ts'] });
    const d = await api.item(projectId, { title: 'Delta parser follow', touches_resources: ['file:src/x.ts'] });
    const e = await api.item(projectId, { title: 'Echo undeclared after parser', depends_on: c.id });
    const f = await api.item(projectId, { title: 'Foxtrot undeclared last', depends_on: e.id });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const result = (await callTool(client, 'assign_sprint_waves', { project_id: projectId })).value;
      expect(result).toMatchObject({ wave_count: 3, assigned: 6, blocked_count: 0, undeclared_count: 4 });
      expect(result.waves.map((w: { wave: string; items: { id: string }[] }) => [w.wave, w.items.map((i) => i.id)])).toEqual([
        ['wave-1', [a.id, b.id, c.id]],
        ['wave-2', [d.id, e.id]],
        ['wave-3', [f.id]],
      ]);
    } finally {
      await client.close();
    }
    const waves = Object.fromEntries(
      ((await run.http.get(`/projects/${projectId}/sprint-items`)).body as { title: string; wave: string }[]).map((i) => [i.title.split(' ')[0], i.wave]),
    );
    expect(waves).toEqual({ Alpha: 'wave-1', Bravo: 'wave-1', Charlie: 'wave-1', Delta: 'wave-2', Echo: 'wave-2', Foxtrot: 'wave-3' });
  });

  test('labels continue after waves already used, so a completed wave keeps its record and its name', async () => {
    const projectId = await api.project('Wave Numbering');
    const a = await api.item(projectId, { title: 'First batch job', touches_resources: ['file:a.ts'] });
    await run.http.post(`/projects/${projectId}/sprint/assign-waves`, {});
    await run.http.post(`/projects/${projectId}/sprint-items/${a.id}/complete`, {});
    expect((await run.http.get(`/projects/${projectId}/wave-summary/wave-1`)).body.item_count).toBe(1);
    const b = await api.item(projectId, { title: 'Second batch job', touches_resources: ['file:a.ts'] });
    const plan = (await run.http.post(`/projects/${projectId}/sprint/assign-waves`, {})).body;
    expect(plan.waves).toEqual([{ wave: 'wave-2', items: [{ id: b.id, slug: b.slug, title: b.title }] }]);
    expect((await run.http.get(`/projects/${projectId}/wave-summary/wave-1`)).body.items.map((i: { id: string }) => i.id)).toEqual([a.id]);
  });
});
