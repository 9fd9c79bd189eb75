import { randomUUID } from 'node:crypto';
import { WorkspaceBlogPost } from '../src/modules/workspace-layer/workspace-blog-post.entity';
import { addMember, freshEmail, signIn, SignedInClient } from './support/accounts';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { expectRefused } from './support/bad-input';
import { Http } from './support/http';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';

describe.each(eachBackend())("the workspace's own blog on %s", (_name, backend) => {
  let run: RunningBackend;
  /** Who writes here: self-hosted the operator (no credential), hosted a signed-in owner. */
  let writer: Http;
  let owner: SignedInClient | undefined;

  beforeAll(async () => {
    run = await backend.start();
    if (run.token) {
      owner = await signIn(run.testApp, freshEmail('blog-owner'));
      writer = owner.http;
    } else writer = run.http;
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('POST /workspace/blog answers 201 with the post; GET lists them newest first with a total, paged', async () => {
    const first = await writer.post('/workspace/blog', { title: '  Release notes  ', body: 'We shipped **locks**.' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(String),
      title: 'Release notes',
      body: 'We shipped **locks**.',
      author: owner ? expect.stringContaining('blog-owner-') : null,
      created_at: expect.any(String),
    });
    await new Promise((r) => setTimeout(r, 5));
    const second = await writer.post('/workspace/blog', { title: 'On-call rota', body: 'Weekly, Mondays.' });
    expect(second.status).toBe(201);
    const list = await writer.get('/workspace/blog');
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.posts.map((p: { id: string }) => p.id)).toEqual([second.body.id, first.body.id]);
    const page = await writer.get('/workspace/blog?limit=1&offset=1');
    expect(page.body).toEqual({ posts: [first.body], total: 2 });
    // Not the instance's public blog.
    expect((await new Http(run.testApp.url).get('/api/blog-posts')).body.posts).toEqual([]);
  });

  test('bad input is 400 naming the field and stores nothing', async () => {
    const before = (await writer.get('/workspace/blog')).body.total;
    await expectRefused(
      (body) => writer.post('/workspace/blog', body),
      [
        [{ body: 'no title' }, /^title/],
        [{ title: '   ', body: 'x' }, /^title must not be empty/],
        [{ title: 'x'.repeat(201), body: 'x' }, /^title must be at most 200 characters/],
        [{ title: 'No body' }, /^body/],
        [{ title: 'Blank', body: '  \n ' }, /^body must not be blank/],
        [{ title: 'Wrong', body: 42 }, /^body must be a string/],
        [{ title: 'Extra', body: 'x', published: true }, /published/],
      ],
    );
    for (const query of ['limit=0', 'limit=x', 'offset=-1']) {
      const bad = await writer.get(`/workspace/blog?${query}`);
      expect([query, bad.status, bad.body.detail]).toEqual([query, 400, expect.stringMatching(query.split('=')[0])]);
    }
    expect((await writer.get('/workspace/blog')).body.total).toBe(before);
    if (!owner) expect(await inTenantDb(run.testApp, run.token, (m) => m.count(WorkspaceBlogPost))).toBe(before);
  });

  test('hosted, the workspace token (made by no one) reads the blog but cannot write it', async () => {
    if (!run.token) return;
    expect((await run.http.get('/workspace/blog')).status).toBe(200);
    const refused = await run.http.post('/workspace/blog', { title: 'From a script', body: 'x' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'BLOG_WRITER_REQUIRED', detail: expect.stringMatching(/owners and admins/) });
  });
});

describe.each(hostedBackend())('the workspace blog across people and workspaces on %s', (_name, backend) => {
  let run: RunningBackend;
  let owner: SignedInClient;

  beforeAll(async () => {
    run = await backend.start();
    owner = await signIn(run.testApp, freshEmail('owner'));
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('members read, only owners and admins write; another workspace sees none of it; no credential, 401', async () => {
    const marker = `body-${randomUUID()}`;
    const admin = await addMember(run.testApp, owner.tenantId, 'admin');
    const member = await addMember(run.testApp, owner.tenantId, 'member');
    const byAdmin = await new Http(run.testApp.url, admin.token).post('/workspace/blog', { title: 'From the admin', body: marker });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.author).toBe(admin.email);
    const memberClient = new Http(run.testApp.url, member.token);
    const refused = await memberClient.post('/workspace/blog', { title: 'From a member', body: 'x' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'BLOG_WRITER_REQUIRED', detail: expect.stringMatching(/not by a member/) });
    const read = await memberClient.get('/workspace/blog');
    expect(read.body.posts.map((p: { body: string }) => p.body)).toEqual([marker]);
    expect((await owner.http.get('/workspace/blog')).body.total).toBe(1);
    // The owner's data export carries the workspace's posts.
    const exported = await owner.http.get('/export/my-data');
    const own = exported.body.workspaces.find((ws: { id: string }) => ws.id === owner.tenantId);
    expect(own.data.workspace_blog_posts).toEqual([expect.objectContaining({ id: byAdmin.body.id, body: marker })]);

    const other = await tenantClient(run.testApp, `blog-other-${randomUUID().slice(0, 6)}`);
    const theirs = await other.http.get('/workspace/blog');
    expect(theirs.body).toEqual({ posts: [], total: 0 });
    const otherOwner = await signIn(run.testApp, freshEmail('other-owner'));
    expect((await otherOwner.http.get('/workspace/blog')).text).not.toContain(marker);
    expect((await new Http(run.testApp.url).get('/workspace/blog')).status).toBe(401);
    expect((await new Http(run.testApp.url).post('/workspace/blog', { title: 't', body: 'b' })).status).toBe(401);
  });
});
