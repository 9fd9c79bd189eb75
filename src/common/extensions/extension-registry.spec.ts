import { ExtensionRegistry } from './extension-registry';

type Step = (log: string[]) => Promise<string>;

/** An extension point as the real ones are built: a named subclass that says how its extensions run. */
class Steps extends ExtensionRegistry<Step> {
  constructor() {
    super('test step');
  }

  run(log: string[]): Promise<Map<string, string>> {
    return this.runInOrder((step) => step(log));
  }
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('ExtensionRegistry', () => {
  test('a name registered twice is refused with an error naming the point and the name, and the first extension stays', () => {
    const steps = new Steps();
    const first: Step = async () => 'first';
    steps.register('goal', first);
    expect(() => steps.register('goal', async () => 'second')).toThrow('test step "goal" is registered twice');
    expect(steps.get('goal')).toBe(first);
    expect(steps.names).toEqual(['goal']);
  });

  test('extensions are listed and iterated in registration order, and can be looked up by name', () => {
    const steps = new Steps();
    const b: Step = async () => 'b';
    const a: Step = async () => 'a';
    steps.register('b', b);
    steps.register('a', a);
    expect(steps.names).toEqual(['b', 'a']);
    expect([...steps]).toEqual([
      ['b', b],
      ['a', a],
    ]);
    expect(steps.get('a')).toBe(a);
    expect(steps.get('missing')).toBeUndefined();
  });

  test('unregister removes an extension, answers whether it was there, and frees its name', () => {
    const steps = new Steps();
    steps.register('a', async () => 'a');
    expect(steps.unregister('a')).toBe(true);
    expect(steps.unregister('a')).toBe(false);
    expect(steps.names).toEqual([]);
    expect(() => steps.register('a', async () => 'again')).not.toThrow();
  });

  test('runInOrder starts each extension only once the previous one has settled, and answers the results by name', async () => {
    const steps = new Steps();
    steps.register('slow', async (log) => {
      log.push('slow started');
      await settle();
      log.push('slow done');
      return 'slow result';
    });
    steps.register('fast', async (log) => {
      log.push('fast started');
      return 'fast result';
    });
    const log: string[] = [];
    const results = await steps.run(log);
    expect(log).toEqual(['slow started', 'slow done', 'fast started']);
    expect([...results]).toEqual([
      ['slow', 'slow result'],
      ['fast', 'fast result'],
    ]);
  });

  test('a failing extension stops the run and its error reaches the caller', async () => {
    const steps = new Steps();
    const failure = new Error('lock table missing');
    steps.register('fails', async (log) => {
      log.push('fails');
      throw failure;
    });
    steps.register('after', async (log) => {
      log.push('after');
      return 'after';
    });
    const log: string[] = [];
    await expect(steps.run(log)).rejects.toBe(failure);
    expect(log).toEqual(['fails']);
  });

  test('with nothing registered a run answers no results', async () => {
    expect((await new Steps().run([])).size).toBe(0);
  });
});
