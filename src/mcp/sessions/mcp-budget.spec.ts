import { freeOfBudget } from './mcp-budget';
import { logLevelPasses } from './mcp-session-context';

describe('freeOfBudget', () => {
  test.each([
    [{ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'baton://projects/x/goal' } }, true],
    [{ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'baton://projects/x/goal' } }, true],
    [{ jsonrpc: '2.0', id: 'hitl-1', result: { action: 'accept', content: { answer: 'yes' } } }, true],
    [{ jsonrpc: '2.0', id: 'hitl-1', error: { code: -1, message: 'no' } }, true],
    [{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_project' } }, false],
    [{ jsonrpc: '2.0', method: 'notifications/initialized' }, false],
    [{ jsonrpc: '2.0', id: 4, method: 'resourcesX' }, false],
    [{ jsonrpc: '2.0', id: 5 }, false],
    ['resources/read', false],
    [null, false],
  ])('%j is free: %s', (message, free) => {
    expect(freeOfBudget(message)).toBe(free);
  });
});

describe('logLevelPasses', () => {
  test('a message passes at its own level and below, not above', () => {
    expect(logLevelPasses('warning', 'warning')).toBe(true);
    expect(logLevelPasses('warning', 'info')).toBe(true);
    expect(logLevelPasses('warning', 'error')).toBe(false);
    expect(logLevelPasses('debug', 'info')).toBe(false);
    expect(logLevelPasses('emergency', 'emergency')).toBe(true);
  });
});
