import { Logger } from '@nestjs/common';
import { ToolCall, ToolCallObservers } from './tool-call-observers';

const call: ToolCall = { tool: 'heartbeat', args: { session_id: 's' }, startedAt: new Date(0), durationMs: 1, outcome: 'ok' };

describe('ToolCallObservers', () => {
  let logged: jest.SpyInstance;
  beforeEach(() => {
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  test('an observer name registered twice is refused', () => {
    const observers = new ToolCallObservers();
    observers.register('ai-log', () => undefined);
    expect(() => observers.register('ai-log', () => undefined)).toThrow('tool call observer "ai-log" is registered twice');
  });

  test('with only synchronous observers notify answers at once, without a promise', () => {
    const observers = new ToolCallObservers();
    const seen: string[] = [];
    observers.register('a', (c) => void seen.push(`a:${c.tool}`));
    observers.register('b', (c) => void seen.push(`b:${c.tool}`));
    expect(observers.notify(call)).toBeUndefined();
    expect(seen).toEqual(['a:heartbeat', 'b:heartbeat']);
  });

  test('notify waits for every promise an observer returned, and a failing observer neither rejects it nor stops the others', async () => {
    const observers = new ToolCallObservers();
    const seen: string[] = [];
    observers.register('throws', () => {
      throw new Error('boom');
    });
    observers.register('rejects', () => Promise.reject(new Error('stored nowhere')));
    observers.register('records', async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      seen.push('recorded');
    });
    await expect(observers.notify(call)).resolves.toBeUndefined();
    expect(seen).toEqual(['recorded']);
    expect(logged.mock.calls.map(([line]) => (line as { observer: string }).observer).sort()).toEqual(['rejects', 'throws']);
  });

  test('an unregistered observer is not told', () => {
    const observers = new ToolCallObservers();
    const seen: string[] = [];
    observers.register('ai-log', () => void seen.push('seen'));
    expect(observers.unregister('ai-log')).toBe(true);
    observers.notify(call);
    expect(seen).toEqual([]);
  });
});
