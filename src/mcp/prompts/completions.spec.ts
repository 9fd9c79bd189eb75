import type { CompleteRequest } from '@modelcontextprotocol/sdk/types.js';
import { complete } from './completions';
import type { LiveReads, ProjectRef, SessionRef, SprintItemRef } from './live-reads';

const id = (n: number) => `${n.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;

/** Reads answering a fixed world: `projects`, and the sessions and open items of the first project. */
function world(projects: ProjectRef[], sessions: Partial<SessionRef>[] = [], items: Partial<SprintItemRef>[] = []): LiveReads {
  return {
    projects: async () => projects,
    sessions: async (projectId: string) => (projectId === projects[0]?.id ? (sessions as SessionRef[]) : []),
    openItems: async (projectId: string) => (projectId === projects[0]?.id ? (items as SprintItemRef[]) : []),
  } as unknown as LiveReads;
}

const ask = (name: string, value: string, context?: Record<string, string>): CompleteRequest['params'] => ({
  ref: { type: 'ref/prompt', name: 'close_out' },
  argument: { name, value },
  ...(context && { context: { arguments: context } }),
});

describe('complete', () => {
  test('a project argument completes names then ids; a project_id argument only ids', async () => {
    const reads = world([
      { id: id(1), name: 'Alpha' },
      { id: id(2), name: 'alpine' },
    ]);
    expect((await complete(reads, ask('project', 'AL'))).completion.values).toEqual(['Alpha', 'alpine']);
    expect((await complete(reads, ask('project', '0000000'))).completion.values).toEqual([id(1), id(2)]);
    expect((await complete(reads, ask('project_id', ''))).completion.values).toEqual([id(1), id(2)]);
  });

  test('at most 100 values, with the total and hasMore', async () => {
    const many = Array.from({ length: 130 }, (_, n) => ({ id: id(n + 1), name: `p${n}` }));
    const { completion } = await complete(world(many), ask('project_id', ''));
    expect(completion.values).toHaveLength(100);
    expect(completion).toMatchObject({ total: 130, hasMore: true });
  });

  test('sessions and sprint items need the project among the given arguments; each session name once', async () => {
    const reads = world(
      [{ id: id(1), name: 'Alpha' }],
      [
        { id: id(7), name: 'builder' },
        { id: id(8), name: 'builder' },
      ],
      [{ id: id(9), title: 'Fix the build', slug: 'fix-build' }],
    );
    expect((await complete(reads, ask('session', 'b'))).completion.values).toEqual([]);
    expect((await complete(reads, ask('session', 'b', { project: 'alpha' }))).completion.values).toEqual(['builder']);
    expect((await complete(reads, ask('session_id', '', { project_id: id(1) }))).completion.values).toEqual([id(7), id(8)]);
    expect((await complete(reads, ask('sprint_item', 'BUILD', { project: 'Alpha' }))).completion.values).toEqual([id(9)]);
    expect((await complete(reads, ask('sprint_item', '', { project: 'Omega' }))).completion.values).toEqual([]);
  });

  test('an argument it does not know completes nothing; a prompt it does not have is refused', async () => {
    const reads = world([{ id: id(1), name: 'Alpha' }]);
    expect((await complete(reads, ask('question', 'a'))).completion).toEqual({ values: [], total: 0, hasMore: false });
    await expect(complete(reads, { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'project', value: '' } })).rejects.toMatchObject({
      code: -32602,
      message: 'unknown prompt: nope',
    });
  });
});
