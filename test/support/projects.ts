import { randomUUID } from 'node:crypto';
import { Http } from './http';

/**
 * Creates a project through the API and returns its id. The name gets a short
 * random suffix, as project names are unique in a workspace and a suite's
 * tests share one. The creation itself must answer 201.
 */
export async function createProject(http: Http, name: string): Promise<string> {
  const res = await http.post('/projects', { name: `${name} ${randomUUID().slice(0, 8)}` });
  expect(res.status).toBe(201);
  return res.body.id;
}
