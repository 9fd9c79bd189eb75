import { eachBackend, RunningBackend } from './support/backends';
import { sprintClient } from './support/sprint-client';

/**
 * Many writers creating the same title at once: every answer is a success or the documented 409,
 * never a 500. The hundred writes queue far past a tenant's share of the pool, so on a loaded machine
 * some may be told 503 "try again" (retryable, with Retry-After); they are retried as a client would.
 */
describe.each(eachBackend())('concurrent sprint item creates on %s', (_name, backend) => {
  let run: RunningBackend;
  let api: ReturnType<typeof sprintClient>;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    api = sprintClient(run);
  });
  afterAll(async () => {
    await run?.stop();
  });

  const items = async (projectId: string) => (await run.http.get(`/projects/${projectId}/sprint-items?limit=500`)).body as { slug: string; nickname: string }[];

  /** Every slug and nickname of the project is distinct: they share one namespace. */
  const expectDistinctIdentifiers = async (projectId: string, count: number) => {
    const all = await items(projectId);
    expect(all).toHaveLength(count);
    expect(new Set(all.map((i) => i.slug)).size).toBe(count);
    expect(new Set(all.map((i) => i.nickname)).size).toBe(count);
    const slugs = new Map(all.map((i) => [i.slug, i]));
    expect(all.filter((i) => slugs.has(i.nickname) && slugs.get(i.nickname) !== i)).toEqual([]);
  };

  test('100 creates of one title with force: true are all 201, each with its own slug', async () => {
    const projectId = await api.project('Concurrent Forced');
    const results = await Promise.all(
      Array.from({ length: 100 }, () => run.http.sendRetrying('POST', `/projects/${projectId}/sprint-items`, { title: 'Rotate the signing keys', version: 'v1', force: true })),
    );
    expect(results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    await expectDistinctIdentifiers(projectId, 100);
  }, 120_000);

  test('100 forced creates of a two-word title, whose slug equals its nickname, are all 201 with their own identifiers', async () => {
    const projectId = await api.project('Concurrent Two Words');
    const results = await Promise.all(
      Array.from({ length: 100 }, () => run.http.sendRetrying('POST', `/projects/${projectId}/sprint-items`, { title: 'Rotate keys', version: 'v1', force: true })),
    );
    expect(results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    expect(results[0].body).toMatchObject({ slug: expect.stringMatching(/^rotate-keys/), nickname: expect.stringMatching(/^rotate-keys/) });
    await expectDistinctIdentifiers(projectId, 100);
  }, 120_000);

  test('50 PATCHes of the touches_resources of one item at once are all 200, and the item is still found by its resource', async () => {
    const projectId = await api.project('Concurrent Resources');
    const item = await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'Shared resources', version: 'v1' });
    expect(item.status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        run.http.patch(`/projects/${projectId}/sprint-items/${item.body.id}`, { touches_resources: ['file:src/shared.ts', `file:src/own-${i}.ts`] }),
      ),
    );
    expect(results.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    const shared = await run.http.get(`/projects/${projectId}/resources/sprint-items?resource=${encodeURIComponent('file:src/shared.ts')}`);
    expect(shared.status).toBe(200);
    expect(JSON.stringify(shared.body)).toContain(item.body.id);
  }, 120_000);

  test('100 creates of one title without force: each is 201 or 409 with a detail, never a 5xx', async () => {
    const projectId = await api.project('Concurrent Unforced');
    const results = await Promise.all(
      Array.from({ length: 100 }, () => run.http.sendRetrying('POST', `/projects/${projectId}/sprint-items`, { title: 'Rotate the signing keys', version: 'v1' })),
    );
    const odd = results.filter((r) => r.status !== 201 && !(r.status === 409 && typeof r.body.detail === 'string'));
    expect(odd.map((r) => `${r.status} ${r.text}`)).toEqual([]);
    const created = results.filter((r) => r.status === 201).length;
    expect(created).toBeGreaterThanOrEqual(1);
    await expectDistinctIdentifiers(projectId, created);
  }, 120_000);

  test('100 batch creates of one title at once are all 200 or 409 with a detail, never a 5xx', async () => {
    const projectId = await api.project('Concurrent Batch');
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        run.http.sendRetrying('POST', `/projects/${projectId}/sprint-batch`, {
          op: 'create',
          items: [
            { title: 'Rotate the signing keys', version: 'v1', force: true },
            { title: 'Rotate the signing keys', version: 'v1', force: true },
          ],
        }),
      ),
    );
    const odd = results.filter((r) => r.status !== 200 && !(r.status === 409 && typeof r.body.detail === 'string'));
    expect(odd.map((r) => `${r.status} ${r.text}`)).toEqual([]);
    const created = results.filter((r) => r.status === 200).length * 2;
    await expectDistinctIdentifiers(projectId, created);
  }, 120_000);
});
