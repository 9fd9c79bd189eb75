import { randomUUID } from 'node:crypto';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';
import { Http } from './support/http';

/** POST .../documents/upload as a browser form or curl -F sends it. */
async function upload(http: Http, projectId: string, parts: { content?: string | Uint8Array; type?: string; name?: string; field?: string; filename?: string }) {
  const form = new FormData();
  if (parts.content !== undefined) form.append(parts.field ?? 'file', new Blob([parts.content], { type: parts.type ?? 'text/markdown' }), parts.name ?? 'notes.md');
  if (parts.filename !== undefined) form.append('filename', parts.filename);
  const headers: Record<string, string> = {};
  const token = (http as unknown as { token?: string }).token;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${http.base}/projects/${projectId}/documents/upload`, { method: 'POST', body: form, headers });
  return { status: res.status, body: (await res.json()) as any };
}

describe.each(eachBackend())('project documents and codebase map on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  const files = async (p: string) => (await run.http.get(`/projects/${p}/files`)).body.map((f: { filename: string }) => f.filename);

  test('upload stores markdown and plain text as project files: 201 new, 200 replaced, .txt kept as .md', async () => {
    const p = await createProject(run.http, 'Docs');
    const first = await upload(run.http, p, { content: '# Plan\n\nShip it. ✓', name: 'PLAN.md' });
    expect(first).toEqual({ status: 201, body: expect.objectContaining({ filename: 'PLAN.md', content: '# Plan\n\nShip it. ✓', size: 20 }) });
    expect((await upload(run.http, p, { content: '# Plan v2', name: 'plan.md', type: 'text/markdown; charset=utf-8' })).status).toBe(200);
    expect((await run.http.get(`/projects/${p}/files/PLAN.md`)).body.content).toBe('# Plan v2');
    const text = await upload(run.http, p, { content: 'just words', name: 'readme.txt', type: 'text/plain' });
    expect([text.status, text.body.filename]).toEqual([201, 'readme.md']);
    expect((await upload(run.http, p, { content: 'named', name: 'x.md', filename: 'Chosen.md' })).body.filename).toBe('Chosen.md');
    expect(await files(p)).toEqual(['Chosen.md', 'PLAN.md', 'readme.md']);
  });

  test('upload refuses what is not text, too large, badly named or not multipart, and stores nothing', async () => {
    const p = await createProject(run.http, 'Docs bad');
    const cases: [Parameters<typeof upload>[2], number, RegExp][] = [
      [{ content: '%PDF-1.7', type: 'application/pdf', name: 'x.md' }, 415, /plain text or markdown.*application\/pdf/],
      [{ content: new Uint8Array([0x23, 0x20, 0xff, 0xfe, 0x00]), name: 'x.md' }, 415, /not UTF-8/],
      [{ content: 'a\u0000b', name: 'x.md' }, 415, /binary/],
      [{ content: 'x'.repeat(512 * 1024 + 1), name: 'big.md' }, 413, /at most 524288 bytes/],
      [{ content: 'x', name: 'image.png', type: 'text/plain' }, 400, /filename must be a plain file name/],
      [{ content: 'x', name: 'x.md', filename: 'a/b.md' }, 400, /filename must be a plain file name/],
      [{ content: 'x', name: 'x.md', field: 'document' }, 400, /file/],
      [{ filename: 'x.md' }, 400, /file is required/],
    ];
    for (const [parts, status, detail] of cases) {
      const res = await upload(run.http, p, parts);
      expect([parts.name, res.status, res.body.detail]).toEqual([parts.name, status, expect.stringMatching(detail)]);
    }
    expect((await upload(run.http, p, { content: 'x'.repeat(512 * 1024), name: 'max.md' })).status).toBe(201);
    // Folders in an uploaded file's name are dropped: it lands in the project's files, never elsewhere.
    expect((await upload(run.http, p, { content: 'x', name: '../../etc/passwd.md' })).body.filename).toBe('passwd.md');
    const json = await run.http.post(`/projects/${p}/documents/upload`, { file: '# hi' });
    expect([json.status, json.body.detail]).toEqual([400, expect.stringMatching(/file/)]);
    expect(await files(p)).toEqual(['max.md', 'passwd.md']);
    expect((await upload(run.http, randomUUID(), { content: '# x' })).status).toBe(404);
  });

  test('document-structure lists each document with its headings outline, links and counts', async () => {
    const p = await createProject(run.http, 'Structure');
    const doc = ['# Guide', '', 'See [setup](SETUP.md).', '', '## Install', '```', '# not a heading', '```', 'Usage', '-----', '### Deep ###'].join('\n');
    await run.http.send('PUT', `/projects/${p}/files/GUIDE.md`, { content: doc });
    await run.http.send('PUT', `/projects/${p}/files/empty.md`, { content: '' });
    const res = await run.http.get(`/projects/${p}/document-structure`);
    expect(res.status).toBe(200);
    expect(res.body.documents).toEqual([
      { filename: 'empty.md', size: 0, updated_at: expect.any(String), headings: [], lines: 0, words: 0, code_blocks: 0, links: [], unclosed_fence: false },
      {
        filename: 'GUIDE.md',
        size: Buffer.byteLength(doc),
        updated_at: expect.any(String),
        headings: [
          { level: 1, text: 'Guide', line: 1 },
          { level: 2, text: 'Install', line: 5 },
          { level: 2, text: 'Usage', line: 9 },
          { level: 3, text: 'Deep', line: 11 },
        ],
        lines: 11,
        words: 17,
        code_blocks: 1,
        links: [{ target: 'SETUP.md', line: 3 }],
        unclosed_fence: false,
      },
    ]);
    expect((await run.http.get(`/projects/${randomUUID()}/document-structure`)).status).toBe(404);
    expect((await run.http.get('/projects/nope/document-structure')).body.detail).toMatch(/project_id/);
  });

  test('document-review names what needs a look, by line; a clean document has no issues', async () => {
    const p = await createProject(run.http, 'Review');
    await run.http.send('PUT', `/projects/${p}/files/CLEAN.md`, { content: '# Clean\n\nLinks to [guide](GUIDE.md).' });
    const messy = ['# Guide', '### Skipped', 'TODO: write this', '## Part', '## Part', '[gone](MISSING.md) [web](https://x.io/a.md)', '```', 'open'].join('\n');
    await run.http.send('PUT', `/projects/${p}/files/GUIDE.md`, { content: messy });
    await run.http.send('PUT', `/projects/${p}/files/NOTES.md`, { content: 'no heading here' });
    await run.http.send('PUT', `/projects/${p}/files/BLANK.md`, { content: '  \n' });
    const res = await run.http.get(`/projects/${p}/document-review`);
    expect(res.status).toBe(200);
    const issues = Object.fromEntries(
      res.body.documents.map((d: { filename: string; issues: { code: string; line: number | null }[] }) => [d.filename, d.issues.map((i) => [i.code, i.line])]),
    );
    expect(issues).toEqual({
      'BLANK.md': [['empty', null]],
      'CLEAN.md': [],
      'GUIDE.md': [
        ['unclosed_code_fence', null],
        ['skipped_heading_level', 2],
        ['todo_marker', 3],
        ['duplicate_heading', 5],
        ['broken_link', 6],
      ],
      'NOTES.md': [['no_heading', null]],
    });
    expect(res.body.issue_count).toBe(7);
    expect((await run.http.get(`/projects/${randomUUID()}/document-review`)).status).toBe(404);
  });

  test('codebase-map: packages with their manifests, ecosystems, languages and entry points', async () => {
    const p = await createProject(run.http, 'Map');
    const body = {
      files: [
        { path: 'package.json', size: 100 },
        { path: 'README.md', size: 50 },
        { path: 'apps/web/package.json', size: 10 },
        { path: 'apps/web/src/main.ts', size: 300 },
        { path: 'apps/web/src/deep/x/index.ts', size: 5 },
        { path: 'services/api/go.mod' },
        { path: 'services/api/cmd/api/main.go', size: 700 },
        { path: 'tools/script.py', size: 20 },
        { path: 'tools/script.py', size: 20 },
      ],
    };
    const res = await run.http.post(`/projects/${p}/codebase-map`, body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      project_id: p,
      created_at: expect.any(String),
      file_count: 8,
      total_bytes: 1185,
      languages: [
        { language: 'TypeScript', files: 2, bytes: 305 },
        { language: 'Go', files: 1, bytes: 700 },
        { language: 'Markdown', files: 1, bytes: 50 },
        { language: 'Python', files: 1, bytes: 20 },
      ],
      manifests: ['apps/web/package.json', 'package.json', 'services/api/go.mod'],
      entry_points: ['apps/web/src/main.ts', 'services/api/cmd/api/main.go'],
      packages: [
        {
          path: '.',
          ecosystems: ['node'],
          manifests: ['package.json'],
          entry_points: [],
          languages: [
            { language: 'Markdown', files: 1, bytes: 50 },
            { language: 'Python', files: 1, bytes: 20 },
          ],
          file_count: 3,
        },
        {
          path: 'apps/web',
          ecosystems: ['node'],
          manifests: ['apps/web/package.json'],
          entry_points: ['apps/web/src/main.ts'],
          languages: [{ language: 'TypeScript', files: 2, bytes: 305 }],
          file_count: 3,
        },
        {
          path: 'services/api',
          ecosystems: ['go'],
          manifests: ['services/api/go.mod'],
          entry_points: ['services/api/cmd/api/main.go'],
          languages: [{ language: 'Go', files: 1, bytes: 700 }],
          file_count: 2,
        },
      ],
    });
    // The latest map replaces the previous one.
    const again = await run.http.post(`/projects/${p}/codebase-map`, { files: [{ path: 'Cargo.toml' }, { path: 'src/main.rs' }] });
    expect(again.body.packages).toEqual([expect.objectContaining({ path: '.', ecosystems: ['rust'], entry_points: ['src/main.rs'] })]);
  });

  test('codebase-map refuses bad input naming the field, and unknown projects', async () => {
    const p = await createProject(run.http, 'Map bad');
    const cases: [unknown, RegExp][] = [
      [{}, /files/],
      [{ files: [] }, /files must list at least one file/],
      [{ files: 'a.ts' }, /files must be an array/],
      [{ files: [{ path: '/etc/passwd' }] }, /files\[\]\.path must be a relative path/],
      [{ files: [{ path: 'a/../b' }] }, /files\[\]\.path must be a relative path/],
      [{ files: [{ path: 'a\\b' }] }, /files\[\]\.path/],
      [{ files: [{ path: 'a/' }] }, /files\[\]\.path/],
      [{ files: [{ path: 7 }] }, /files\[\]\.path must be a string/],
      [{ files: [{ path: 'a.ts', size: -1 }] }, /files\[\]\.size must not be negative/],
      [{ files: [{ path: 'a.ts', size: 1.5 }] }, /files\[\]\.size must be a whole number/],
      [{ files: [{ path: 'a.ts', extra: 1 }] }, /extra/],
      [{ files: Array.from({ length: 10_001 }, (_v, i) => ({ path: `f${i}` })) }, /files must list at most 10000 files/],
    ];
    for (const [body, detail] of cases) {
      const res = await run.http.post(`/projects/${p}/codebase-map`, body);
      expect([res.status, res.body.detail]).toEqual([400, expect.stringMatching(detail)]);
    }
    expect((await run.http.post(`/projects/${randomUUID()}/codebase-map`, { files: [{ path: 'a.ts' }] })).status).toBe(404);
  });
});

describe.each(hostedBackend())('project documents across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's project answers 404 on every document and map route, and nothing of it changes", async () => {
    const other = await tenantClient(run.testApp, 'tenant-b');
    const theirs = await createProject(other.http, 'Theirs');
    await other.http.send('PUT', `/projects/${theirs}/files/SECRET.md`, { content: '# Secret' });
    for (const path of ['document-structure', 'document-review']) {
      expect([path, (await run.http.get(`/projects/${theirs}/${path}`)).status]).toEqual([path, 404]);
    }
    expect((await run.http.post(`/projects/${theirs}/codebase-map`, { files: [{ path: 'a.ts' }] })).status).toBe(404);
    expect((await upload(run.http, theirs, { content: '# Mine now', name: 'SECRET.md' })).status).toBe(404);
    expect((await other.http.get(`/projects/${theirs}/files/SECRET.md`)).body.content).toBe('# Secret');
  });
});
