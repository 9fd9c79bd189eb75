import { invalidParamsReply } from './json-rpc-params.util';

const call = (id: number, params: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });

describe('invalidParamsReply', () => {
  test('lets well-formed requests, unknown methods and notifications through to the SDK', () => {
    expect(invalidParamsReply(call(1, { name: 'get_project', arguments: { project_id: 'x' } }))).toBeUndefined();
    expect(invalidParamsReply({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).toBeUndefined();
    expect(invalidParamsReply({ jsonrpc: '2.0', id: 3, method: 'tools/destroy', params: 'x' })).toBeUndefined();
    expect(invalidParamsReply({ jsonrpc: '2.0', method: 'notifications/initialized', params: 'x' })).toBeUndefined();
  });

  test.each([
    ['params left out', { jsonrpc: '2.0', id: 4, method: 'tools/call' }, 'params'],
    ['name a number', call(4, { name: 7 }), 'name'],
    ['arguments a string', call(4, { name: 'get_project', arguments: 'x' }), 'arguments'],
    ['initialize without params', { jsonrpc: '2.0', id: 4, method: 'initialize' }, 'params'],
  ])('answers %s with invalid params (-32602) naming what is wrong', (_label, message, named) => {
    expect(invalidParamsReply(message)).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32602, message: expect.stringContaining(named) } });
  });

  test('in a batch with such a request, runs none and says why for each', () => {
    expect(invalidParamsReply([call(1, { name: 'get_project' }), call(2, null), { jsonrpc: '2.0', method: 'notifications/initialized' }])).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32600, message: expect.stringContaining('message 1 of the batch') } },
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: expect.stringContaining('Invalid params for tools/call') } },
    ]);
  });
});
