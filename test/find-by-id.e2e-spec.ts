import { findById } from '../src/database/find-by-id';
import { TENANT_ENTITIES } from '../src/database/tenant-entities';
import { Project } from '../src/modules/projects/project.entity';
import { eachBackend, RunningBackend } from './support/backends';
import { inTenantDb } from './support/tenant-db';

describe.each(eachBackend())('findById on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
    // Rows in several tables, with timestamps, nulls, JSON text, booleans and numbers.
    const created = await run.http.post('/projects', { name: 'Lookups' });
    expect(created.status).toBe(201);
    const project = created.body;
    const session = (await run.http.post('/sessions/register', { project_id: project.id, name: 'lookup', kind: 'worker' })).body;
    const item = await run.http.post(`/projects/${project.id}/sprint-items`, { version: 'v1', title: 'Look things up', required_notes: 1 });
    expect(item.status).toBe(201);
    expect((await run.http.send('PATCH', `/projects/${project.id}/icon`, { icon: '🚀' })).status).toBe(200);
    await run.http.post('/tasks', { session_id: session.id, project_id: project.id, description: 'Looked something up' });
    await run.http.post(`/projects/${project.id}/notes`, { title: 'Lookup note', body: 'text', tags: ['x'] });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('gives the same entity as findOneBy for every table with rows, and null for a missing id', async () => {
    const compared: string[] = [];
    await inTenantDb(run.testApp, run.token, async (m) => {
      for (const target of TENANT_ENTITIES) {
        const metadata = m.connection.getMetadata(target);
        if (metadata.primaryColumns.length !== 1) continue;
        const key = metadata.primaryColumns[0].propertyName;
        const rows = await m.find(target, { take: 3 });
        for (const row of rows) {
          const id = (row as unknown as Record<string, string>)[key];
          expect(await findById(m, target, id)).toStrictEqual(await m.findOneBy(target, { [key]: id }));
        }
        if (rows.length > 0) compared.push(metadata.tableName);
      }
      expect(await findById(m, Project, '00000000-0000-4000-8000-000000000000')).toBeNull();
    });
    expect(compared).toEqual(expect.arrayContaining(['projects', 'sessions', 'sprint_items', 'tasks', 'project_notes']));
  });
});
