import { EntityManager } from 'typeorm';
import { Session } from './session.entity';
import { SessionCloseHooks } from './session-close-hooks';

describe('SessionCloseHooks', () => {
  const m = {} as EntityManager;
  const session = { id: 's1' } as Session;

  it('calls witnesses before every hook and their follow-ups after all of them, preparations on their own', async () => {
    const hooks = new SessionCloseHooks();
    const calls: string[] = [];
    hooks.register('locks', async () => void calls.push('hook locks'));
    hooks.registerWitness('handoff', async () => {
      calls.push('witness before');
      return async () => void calls.push('witness after');
    });
    hooks.registerWitness('silent', async () => {
      calls.push('silent witness');
      return undefined;
    });
    hooks.register('sprint', async () => void calls.push('hook sprint'));
    hooks.registerPreparation('warm', async () => void calls.push('prepared'));

    await hooks.runAll(m, session, 'closed');
    expect(calls).toEqual(['witness before', 'silent witness', 'hook locks', 'hook sprint', 'witness after']);
    await hooks.prepareAll();
    expect(calls.at(-1)).toBe('prepared');
  });

  it('refuses a witness name taken twice, and a failing hook stops the follow-ups', async () => {
    const hooks = new SessionCloseHooks();
    hooks.registerWitness('handoff', async () => undefined);
    expect(() => hooks.registerWitness('handoff', async () => undefined)).toThrow(/registered twice/);
    let followed = false;
    hooks.registerWitness('after', async () => async () => void (followed = true));
    hooks.register('broken', async () => {
      throw new Error('database gone');
    });
    await expect(hooks.runAll(m, session, 'swept')).rejects.toThrow('database gone');
    expect(followed).toBe(false);
  });
});
