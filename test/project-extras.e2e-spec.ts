import { randomUUID } from 'node:crypto';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { BAD_SEGMENTS, fuzzPathIds, fuzzRoute, fuzzTool } from './support/route-fuzz';
import { tenantClient } from './support/tenant-client';

describe.each(eachBackend())('project extras on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  const newProject = (name: string) => createProject(run.http, name);

  test('organization status: active by default, parked or archived, shown on the project', async () => {
    const p = await newProject('Org');
    expect((await run.http.get(`/projects/${p}`)).body.organization_status).toBe('active');
    const parked = await run.http.patch(`/projects/${p}/organization`, { status: 'parked' });
    expect(parked.status).toBe(200);
    expect(parked.body).toMatchObject({ id: p, organization_status: 'parked' });
    expect((await run.http.patch(`/projects/${p}/organization`, { status: 'archived' })).body.organization_status).toBe('archived');
    expect((await run.http.get('/projects')).body.find((x: { id: string }) => x.id === p).organization_status).toBe('archived');
    const bad = await run.http.patch(`/projects/${p}/organization`, { status: 'deleted' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('status must be one of active, parked, archived');
    expect((await run.http.patch(`/projects/${randomUUID()}/organization`, { status: 'parked' })).status).toBe(404);
  });

  test('icon: exactly one emoji (a ZWJ sequence or a flag counts as one), cleared with null', async () => {
    const p = await newProject('Icon');
    expect((await run.http.get(`/projects/${p}`)).body.icon).toBeNull();
    for (const icon of ['🚀', '👩‍💻', '🇫🇷', '👍🏽', '1️⃣']) {
      const res = await run.http.patch(`/projects/${p}/icon`, { icon });
      expect(res.status).toBe(200);
      expect(res.body.icon).toBe(icon);
    }
    for (const icon of ['a', '🚀🚀', '', ' ', 'ok👍', '1', ':rocket:']) {
      const res = await run.http.patch(`/projects/${p}/icon`, { icon });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe('icon must be exactly one emoji, or null to clear it');
    }
    expect((await run.http.get(`/projects/${p}`)).body.icon).toBe('1️⃣');
    expect((await run.http.patch(`/projects/${p}/icon`, {})).status).toBe(400);
    expect((await run.http.patch(`/projects/${p}/icon`, { icon: null })).body.icon).toBeNull();
    expect((await run.http.get(`/projects/${p}`)).body.icon).toBeNull();
  });

  test('parent project: one level only; changeable and clearable; deleting a parent leaves its subprojects top-level', async () => {
    const parent = await newProject('Parent');
    const child = await newProject('Child');
    const grandchild = await newProject('Grandchild');
    const other = await newProject('Other parent');
    const set = await run.http.post(`/projects/${child}/parent`, { parent_id: parent });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: child, parent_id: parent });
    const deeper = await run.http.post(`/projects/${grandchild}/parent`, { parent_id: child });
    expect(deeper.status).toBe(409);
    expect(deeper.body).toMatchObject({ code: 'PARENT_IS_SUBPROJECT', detail: expect.stringContaining('one level deep') });
    const upward = await run.http.post(`/projects/${parent}/parent`, { parent_id: other });
    expect(upward.status).toBe(409);
    expect(upward.body.code).toBe('PROJECT_HAS_SUBPROJECTS');
    const self = await run.http.post(`/projects/${other}/parent`, { parent_id: other });
    expect(self.status).toBe(400);
    expect(self.body.code).toBe('PARENT_IS_SELF');
    const ghost = await run.http.post(`/projects/${other}/parent`, { parent_id: randomUUID() });
    expect(ghost.status).toBe(404);
    expect(ghost.body.code).toBe('PARENT_NOT_FOUND');
    expect((await run.http.post(`/projects/${child}/parent`, { parent_id: other })).body.parent_id).toBe(other);
    expect((await run.http.post(`/projects/${parent}/parent`, { parent_id: other })).body.parent_id).toBe(other);
    expect((await run.http.post(`/projects/${parent}/parent`, { parent_id: null })).body.parent_id).toBeNull();
    expect((await run.http.post(`/projects/${parent}/parent`, {})).status).toBe(400);
    expect((await run.http.delete(`/projects/${other}`)).status).toBe(204);
    expect((await run.http.get(`/projects/${child}`)).body).toMatchObject({ id: child, parent_id: null });
  });

  test('two opposite parent requests at once cannot build two levels: exactly one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await newProject('Race A');
      const b = await newProject('Race B');
      const c = await newProject('Race C');
      const [ab, bc] = await Promise.all([run.http.post(`/projects/${a}/parent`, { parent_id: b }), run.http.post(`/projects/${b}/parent`, { parent_id: c })]);
      expect([ab.status, bc.status].sort()).toEqual([200, 409]);
      const parentOf = async (id: string) => (await run.http.get(`/projects/${id}`)).body.parent_id;
      const chain = [await parentOf(a), await parentOf(b), await parentOf(c)];
      expect(chain[0] !== null && chain[1] !== null).toBe(false);
      expect(chain[2]).toBeNull();
    }
  });

  test('agent instructions: Baton defaults until set; null resets; /default shows the defaults', async () => {
    const p = await newProject('Instructions');
    const defaults = await run.http.get(`/projects/${p}/agent-instructions/default`);
    expect(defaults.status).toBe(200);
    expect(defaults.body.agent_instructions).toContain('start_session');
    expect((await run.http.get(`/projects/${p}/agent-instructions`)).body).toEqual({ project_id: p, agent_instructions: defaults.body.agent_instructions, is_default: true });
    const own = await run.http.patch(`/projects/${p}/agent-instructions`, { agent_instructions: '# Rules\n\nRun the tests before pushing.' });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ project_id: p, agent_instructions: '# Rules\n\nRun the tests before pushing.', is_default: false });
    expect((await run.http.get(`/projects/${p}/agent-instructions`)).body.is_default).toBe(false);
    expect((await run.http.get(`/projects/${p}`)).body).not.toHaveProperty('agent_instructions');
    const reset = await run.http.patch(`/projects/${p}/agent-instructions`, { agent_instructions: null });
    expect(reset.body).toEqual({ project_id: p, agent_instructions: defaults.body.agent_instructions, is_default: true });
    expect((await run.http.patch(`/projects/${p}/agent-instructions`, {})).body.detail).toBe('agent_instructions is required');
    expect((await run.http.patch(`/projects/${p}/agent-instructions`, { agent_instructions: 'x'.repeat(64_001) })).status).toBe(400);
    expect((await run.http.get(`/projects/${randomUUID()}/agent-instructions`)).status).toBe(404);
    expect((await run.http.get(`/projects/${randomUUID()}/agent-instructions/default`)).status).toBe(404);
  });

  test('markdown files: PUT creates (201) then replaces (200); names are plain .md names, one file per name in any case', async () => {
    const p = await newProject('Files');
    expect((await run.http.get(`/projects/${p}/files`)).body).toEqual([]);
    const created = await run.http.send('PUT', `/projects/${p}/files/CLAUDE.md`, { content: '# Claude\n\nBe brief. ✓' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ filename: 'CLAUDE.md', content: '# Claude\n\nBe brief. ✓', size: Buffer.byteLength('# Claude\n\nBe brief. ✓') });
    const replaced = await run.http.send('PUT', `/projects/${p}/files/claude.md`, { content: 'replaced' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ filename: 'CLAUDE.md', content: 'replaced', size: 8 });
    await run.http.send('PUT', `/projects/${p}/files/AGENTS.md`, { content: 'é' });
    expect((await run.http.get(`/projects/${p}/files`)).body).toEqual([
      { filename: 'AGENTS.md', size: 2, updated_at: expect.any(String) },
      { filename: 'CLAUDE.md', size: 8, updated_at: expect.any(String) },
    ]);
    expect((await run.http.get(`/projects/${p}/files/Claude.MD`)).body.content).toBe('replaced');
    const missing = await run.http.get(`/projects/${p}/files/NOPE.md`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'FILE_NOT_FOUND', detail: 'file not found: NOPE.md' });
    for (const name of ['notes.txt', '.hidden.md', 'a..md', '..%2F..%2Fetc%2Fpasswd', 'dir%2Fx.md', '..%5Cx.md', `${'a'.repeat(120)}.md`, '%00.md', 'x%20y.md']) {
      const res = await run.http.send('PUT', `/projects/${p}/files/${name}`, { content: 'x' });
      expect([res.status, name]).toEqual([400, name]);
      expect(res.body.detail).toContain('filename must be a plain file name ending in .md');
    }
    expect((await run.http.get(`/projects/${p}/files`)).body).toHaveLength(2);
    expect((await run.http.send('PUT', `/projects/${p}/files/BIG.md`, { content: 'x'.repeat(512 * 1024 + 1) })).status).toBe(400);
    expect((await run.http.send('PUT', `/projects/${randomUUID()}/files/A.md`, { content: 'x' })).status).toBe(404);
  });

  test('update_md_section replaces one named section and nothing else; README is refused; create adds what is missing', async () => {
    const p = await newProject('Sections');
    const original = '# Guide\n\nIntro stays.\n\n<!-- baton:begin status -->\nold status\n<!-- baton:end status -->\n\nOutro stays.\n';
    await run.http.send('PUT', `/projects/${p}/files/GUIDE.md`, { content: original });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const done = await callTool(client, 'update_md_section', { project_id: p, filename: 'GUIDE.md', section: 'status', content: 'all green\n\n- 12 tests\n' });
      expect(done.isError).toBe(false);
      expect(done.value).toMatchObject({ section: 'status', section_created: false, file_created: false });
      expect(done.value.file.content).toBe('# Guide\n\nIntro stays.\n\n<!-- baton:begin status -->\nall green\n\n- 12 tests\n<!-- baton:end status -->\n\nOutro stays.\n');
      expect((await run.http.get(`/projects/${p}/files/GUIDE.md`)).body.content).toBe(done.value.file.content);

      const rest = await run.http.send('PUT', `/projects/${p}/files/GUIDE.md/sections/STATUS`, { content: 'via REST' });
      expect(rest.status).toBe(200);
      expect(rest.body.file.content).toContain('<!-- baton:begin status -->\nvia REST\n<!-- baton:end status -->');

      await run.http.send('PUT', `/projects/${p}/files/README.md`, { content: '<!-- baton:begin x -->\n<!-- baton:end x -->' });
      const readme = await callTool(client, 'update_md_section', { project_id: p, filename: 'readme.md', section: 'x', content: 'y' });
      expect(readme.isError).toBe(true);
      expect(readme.structured).toMatchObject({ code: 'README_PROTECTED' });
      expect((await run.http.send('PUT', `/projects/${p}/files/Readme.md/sections/x`, { content: 'y' })).status).toBe(403);
      expect((await run.http.get(`/projects/${p}/files/README.md`)).body.content).toBe('<!-- baton:begin x -->\n<!-- baton:end x -->');

      const missingSection = await callTool(client, 'update_md_section', { project_id: p, filename: 'GUIDE.md', section: 'deploy', content: 'steps' });
      expect(missingSection.structured).toMatchObject({ code: 'SECTION_NOT_FOUND' });
      const added = await callTool(client, 'update_md_section', { project_id: p, filename: 'GUIDE.md', section: 'deploy', content: 'steps', create: true });
      expect(added.value.section_created).toBe(true);
      expect(added.value.file.content.endsWith('Outro stays.\n\n<!-- baton:begin deploy -->\nsteps\n<!-- baton:end deploy -->\n')).toBe(true);
      expect((await callTool(client, 'update_md_section', { project_id: p, filename: 'NEW.md', section: 'a', content: 'b' })).structured?.code).toBe('FILE_NOT_FOUND');
      const newFile = await callTool(client, 'update_md_section', { project_id: p, filename: 'NEW.md', section: 'a', content: 'b', create: true });
      expect(newFile.value).toMatchObject({
        file_created: true,
        section_created: true,
        file: { filename: 'NEW.md', content: '<!-- baton:begin a -->\nb\n<!-- baton:end a -->\n' },
      });

      await run.http.send('PUT', `/projects/${p}/files/DUP.md`, { content: '<!-- baton:begin a -->\n1\n<!-- baton:end a -->\n<!-- baton:begin a -->\n2\n<!-- baton:end a -->' });
      expect((await callTool(client, 'update_md_section', { project_id: p, filename: 'DUP.md', section: 'a', content: 'x' })).structured?.code).toBe('SECTION_AMBIGUOUS');
      await run.http.send('PUT', `/projects/${p}/files/BROKEN.md`, { content: '<!-- baton:begin a -->\nno end' });
      expect((await callTool(client, 'update_md_section', { project_id: p, filename: 'BROKEN.md', section: 'a', content: 'x' })).structured?.code).toBe('SECTION_MALFORMED');
      const badName = await callTool(client, 'update_md_section', { project_id: p, filename: 'GUIDE.md', section: 'two words', content: 'x' });
      expect(badName.text).toContain('section must be a name');
      expect((await callTool(client, 'update_md_section', { project_id: p, filename: '../GUIDE.md', section: 'a', content: 'x' })).text).toContain(
        'filename must be a plain file name',
      );
    } finally {
      await client.close();
    }
  });

  test('MCP tools for the extras act on the same project as REST', async () => {
    const p = await newProject('Extra tools');
    const parent = await newProject('Extra parent');
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      expect((await callTool(client, 'set_project_organization', { project_id: p, status: 'parked' })).value.organization_status).toBe('parked');
      expect((await callTool(client, 'set_project_icon', { project_id: p, icon: '🧪' })).value.icon).toBe('🧪');
      expect((await callTool(client, 'set_project_parent', { project_id: p, parent_id: parent })).value.parent_id).toBe(parent);
      expect((await run.http.get(`/projects/${p}`)).body).toMatchObject({ organization_status: 'parked', icon: '🧪', parent_id: parent });
      expect((await callTool(client, 'set_agent_instructions', { project_id: p, agent_instructions: 'Be careful' })).value.is_default).toBe(false);
      expect((await callTool(client, 'get_agent_instructions', { project_id: p })).value.agent_instructions).toBe('Be careful');
      expect((await callTool(client, 'get_default_agent_instructions', { project_id: p })).value.agent_instructions).toContain('Baton');
      expect((await callTool(client, 'write_project_file', { project_id: p, filename: 'NOTES.md', content: 'hi' })).value.created).toBe(true);
      expect((await callTool(client, 'list_project_files', { project_id: p })).value.map((f: { filename: string }) => f.filename)).toEqual(['NOTES.md']);
      expect((await callTool(client, 'read_project_file', { project_id: p, filename: 'notes.md' })).value.content).toBe('hi');
      const restBad = await run.http.patch(`/projects/${p}/icon`, { icon: 'no' });
      const toolBad = await callTool(client, 'set_project_icon', { project_id: p, icon: 'no' });
      expect(toolBad.text).toBe(restBad.body.detail);
    } finally {
      await client.close();
    }
  });

  test('bad input to every extras route and tool: 4xx with a detail, never 5xx', async () => {
    const p = await newProject('Extras fuzz');
    const parent = await newProject('Extras fuzz parent');
    await run.http.send('PUT', `/projects/${p}/files/F.md`, { content: '<!-- baton:begin s -->\n<!-- baton:end s -->' });
    await fuzzRoute(run.http, { method: 'PATCH', path: `/projects/${p}/organization`, body: { status: 'active' } });
    await fuzzRoute(run.http, { method: 'PATCH', path: `/projects/${p}/icon`, body: { icon: '🚀' } });
    await fuzzRoute(run.http, { method: 'POST', path: `/projects/${p}/parent`, body: { parent_id: parent } });
    await fuzzRoute(run.http, { method: 'PATCH', path: `/projects/${p}/agent-instructions`, body: { agent_instructions: 'x' } });
    await fuzzRoute(run.http, { method: 'PUT', path: `/projects/${p}/files/F.md`, body: { content: 'x' } });
    await fuzzRoute(run.http, { method: 'PUT', path: `/projects/${p}/files/F.md/sections/s`, body: { content: 'x', create: true } });
    for (const bad of BAD_SEGMENTS) {
      await fuzzPathIds(run.http, 'GET', [
        `/projects/${bad}/agent-instructions`,
        `/projects/${bad}/agent-instructions/default`,
        `/projects/${bad}/files`,
        `/projects/${p}/files/${bad}`,
      ]);
      await fuzzPathIds(run.http, 'PUT', [`/projects/${p}/files/${bad}`, `/projects/${p}/files/F.md/sections/${bad}`], { content: 'x' });
      await fuzzPathIds(run.http, 'PATCH', [`/projects/${bad}/icon`], { icon: '🚀' });
    }
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await fuzzTool(client, 'set_project_organization', { project_id: p, status: 'active' });
      await fuzzTool(client, 'set_project_icon', { project_id: p, icon: '🚀' });
      await fuzzTool(client, 'set_project_parent', { project_id: p, parent_id: parent });
      await fuzzTool(client, 'set_agent_instructions', { project_id: p, agent_instructions: 'x' });
      await fuzzTool(client, 'write_project_file', { project_id: p, filename: 'F.md', content: 'x' });
      await fuzzTool(client, 'read_project_file', { project_id: p, filename: 'F.md' });
      await fuzzTool(client, 'update_md_section', { project_id: p, filename: 'F.md', section: 's', content: 'x', create: false });
    } finally {
      await client.close();
    }
  }, 300_000);
});

describe.each(hostedBackend())('project extras across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's project answers 404 on every extras route; it cannot become anyone's parent", async () => {
    const p = (await run.http.post('/projects', { name: 'Owner' })).body.id;
    await run.http.send('PUT', `/projects/${p}/files/SECRET.md`, { content: 'private' });
    const other = await tenantClient(run.testApp, 'other');
    const intruder = other.http;
    const theirs = (await intruder.post('/projects', { name: 'Theirs' })).body.id;
    const statuses = [
      (await intruder.patch(`/projects/${p}/organization`, { status: 'archived' })).status,
      (await intruder.patch(`/projects/${p}/icon`, { icon: '💀' })).status,
      (await intruder.post(`/projects/${p}/parent`, { parent_id: null })).status,
      (await intruder.get(`/projects/${p}/agent-instructions`)).status,
      (await intruder.patch(`/projects/${p}/agent-instructions`, { agent_instructions: 'x' })).status,
      (await intruder.get(`/projects/${p}/agent-instructions/default`)).status,
      (await intruder.get(`/projects/${p}/files`)).status,
      (await intruder.get(`/projects/${p}/files/SECRET.md`)).status,
      (await intruder.send('PUT', `/projects/${p}/files/SECRET.md`, { content: 'x' })).status,
      (await intruder.send('PUT', `/projects/${p}/files/SECRET.md/sections/a`, { content: 'x', create: true })).status,
    ];
    expect(statuses).toEqual(statuses.map(() => 404));
    const crossParent = await intruder.post(`/projects/${theirs}/parent`, { parent_id: p });
    expect(crossParent.status).toBe(404);
    expect(crossParent.body.code).toBe('PARENT_NOT_FOUND');
    expect((await run.http.get(`/projects/${p}`)).body).toMatchObject({ organization_status: 'active', icon: null, parent_id: null });
    expect((await run.http.get(`/projects/${p}/files/SECRET.md`)).body.content).toBe('private');
  });
});
