import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { connectMcp } from './support/mcp-client';
import { startApp, TestApp } from './support/test-app';

/**
 * Clients that compile tool schemas (Ajv in many MCP clients) reject a listing that holds one
 * schema they cannot compile: every listed input schema must stand alone, valid under draft-07
 * and draft 2020-12, strict mode.
 */
describe('MCP tool input schemas', () => {
  let testApp: TestApp;
  let tools: { name: string; inputSchema: Record<string, unknown> }[];

  beforeAll(async () => {
    testApp = await startApp();
    const client = await connectMcp(testApp.url, undefined, 'http', 'all');
    try {
      tools = (await client.listTools()).tools as typeof tools;
    } finally {
      await client.close();
    }
  });
  afterAll(() => testApp?.close());

  test('the listing holds the tools', () => {
    expect(tools.length).toBeGreaterThan(100);
  });

  test.each([
    ['draft-07', () => addFormats(new Ajv({ strict: true, allErrors: true }))],
    ['draft 2020-12', () => addFormats(new Ajv2020({ strict: true, allErrors: true }))],
  ])('every schema compiles under %s, with no reference left dangling', (_draft, make) => {
    const failures: string[] = [];
    for (const tool of tools) {
      try {
        make().compile(tool.inputSchema);
      } catch (error) {
        failures.push(`${tool.name}: ${(error as Error).message}`);
      }
      if (JSON.stringify(tool.inputSchema).includes('"$ref"')) failures.push(`${tool.name}: holds a $ref`);
    }
    expect(failures).toEqual([]);
  });

  test('a nested input is written out in place and refuses unknown fields like the top level', () => {
    const settings = tools.find((t) => t.name === 'update_project_settings')?.inputSchema as { properties: Record<string, Record<string, unknown>> };
    expect(settings.properties.executor_config).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: expect.objectContaining({ repo_path: expect.any(Object) }),
    });
    const validate = addFormats(new Ajv({ strict: false })).compile(settings);
    expect(validate({ project_id: '3f2b8c1e-4a5d-4e6f-9a0b-1c2d3e4f5a6b', executor_config: { repo_path: '/srv/app' } })).toBe(true);
    expect(validate({ project_id: '3f2b8c1e-4a5d-4e6f-9a0b-1c2d3e4f5a6b', executor_config: { repo_paht: '/srv/app' } })).toBe(false);
  });
});
