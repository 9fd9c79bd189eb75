import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { backends, RunningBackend } from './support/backends';
import { REPO_ROOT } from './support/processes';
import { Http } from './support/http';
import { expressRoutes } from './support/routes';

/**
 * The OpenAPI document is built from the code (`npm run build`): every route the
 * server serves is in it with a documented answer and the release that added
 * it, its shapes come from the handlers' own types, and every MCP tool in the
 * tools document carries its release too. Adding a route or a tool without
 * recording its release (`npm run release-labels`) fails here.
 */

interface Operation {
  description: string;
  'x-added-in': string;
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  parameters?: { name: string; in: string }[];
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Record<string, unknown>> } };

const RELEASE = /^v\d+\.\d+$/;
/** The shared refusals every route may give; a documented answer is one besides them. */
const SHARED_REFUSALS = new Set(['400', '401', '403', '404', '409', '415', '429', '503']);

describe.each(backends().map((b) => [b.name, b] as const))('the OpenAPI document on %s', (_name, backend) => {
  let run: RunningBackend;
  let document: Document;
  beforeAll(async () => {
    run = await backend.start();
    const answer = await new Http(run.testApp.url).get('/openapi.json');
    expect(answer.status).toBe(200);
    document = answer.body as Document;
  });
  afterAll(() => run?.stop());

  test('every route the server serves is documented with an answer and the release that added it', () => {
    const missing: string[] = [];
    for (const route of expressRoutes(run.testApp.app)) {
      const [method, path] = route.split(' ');
      const operation = document.paths[path.replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}')]?.[method.toLowerCase()];
      if (!operation) missing.push(`${route}: not in the document`);
      else if (!Object.keys(operation.responses).some((status) => !SHARED_REFUSALS.has(status))) missing.push(`${route}: no documented answer`);
      else if (!RELEASE.test(operation['x-added-in']) || !operation.description.startsWith(`Added in ${operation['x-added-in']}.`)) {
        missing.push(`${route}: no release label (run npm run release-labels)`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('shapes come from the code: a project, a sprint item list, the create body, path and query parameters', () => {
    expect(document.openapi).toBe('3.1.0');
    const get = document.paths['/projects/{project_id}'].get;
    expect(get.responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/ProjectView' });
    expect(document.components.schemas.ProjectView).toMatchObject({ type: 'object', required: expect.arrayContaining(['id', 'name', 'created_at']) });
    expect(get.parameters).toEqual([{ name: 'project_id', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '401', '404']));

    const list = document.paths['/projects/{project_id}/sprint-items'];
    expect(list.get.responses['200'].content!['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/SprintItemView' } });
    expect(list.get.parameters!.map((p) => `${p.in}:${p.name}`)).toEqual(expect.arrayContaining(['path:project_id', 'query:status']));
    expect(Object.keys(list.post.responses)).toEqual(expect.arrayContaining(['201', '400', '409']));
    const body = list.post.requestBody!.content['application/json'].schema;
    const createSchema = document.components.schemas[(body.$ref as string).split('/').pop()!];
    expect(createSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['title']) });

    expect(document.paths['/health'].get['x-added-in']).toBe('v0.1');
    expect(document.paths['/status/server'].get.responses['200'].content).toHaveProperty(['image/svg+xml']);
  });

  test("the dashboard's API types are written from the document: one declaration per schema", () => {
    const types = readFileSync(join(REPO_ROOT, 'apps/dashboard/src/api/openapi-types.gen.ts'), 'utf8');
    for (const name of Object.keys(document.components.schemas)) expect(types).toContain(`  ${JSON.stringify(name)}: `);
    expect(readFileSync(join(REPO_ROOT, 'apps/dashboard/src/api/types.ts'), 'utf8')).toContain("export type ProjectView = Schemas['ProjectView'];");
  });

  test('every $ref resolves to a schema of the document', () => {
    const refs = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key === '$ref') refs.add(inner as string);
          else walk(inner);
        }
      }
    };
    walk(document);
    const unresolved = [...refs].filter((ref) => !document.components.schemas[ref.replace('#/components/schemas/', '')]);
    expect(unresolved).toEqual([]);
    expect(refs.size).toBeGreaterThan(50);
  });

  test('the browsable reference lists the operations; the tools document labels every tool', async () => {
    const http = new Http(run.testApp.url);
    const page = await http.get('/openapi');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('GET /projects/{project_id}/sprint-items');
    expect(page.text).toContain('<a href="/openapi.json">');

    const doc = await http.get('/mcp/tools-doc');
    const sections = doc.text.split('\n## ').slice(1);
    expect(sections.length).toBeGreaterThan(20);
    const unlabelled = sections.filter((section) => !/^\S+\n\n\*Added in v\d+\.\d+\.\*/.test(section)).map((s) => s.split('\n')[0]);
    expect(unlabelled).toEqual([]);
  });
});
