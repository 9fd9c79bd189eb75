import { A2A_RPC } from './a2a.constants';
import { A2aErrorCode } from './a2a.errors';

export interface RpcRequest {
  id: string | number | null;
  method: string;
  params: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON-RPC 2.0 request of the A2A binding, or the reason it is not one. */
export function parseRpcRequest(body: unknown): RpcRequest | { problem: string; id: string | number | null } {
  if (!isObject(body)) return { problem: 'the body must be a JSON-RPC 2.0 request object', id: null };
  const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
  if (body.jsonrpc !== '2.0') return { problem: 'jsonrpc must be "2.0"', id };
  if (typeof body.method !== 'string' || !body.method) return { problem: 'method must be a non-empty string', id };
  if (body.params !== undefined && !isObject(body.params)) return { problem: 'params must be an object', id };
  return { id, method: body.method, params: (body.params as Record<string, unknown> | undefined) ?? {} };
}

/** The JSON-RPC error code of the A2A specification for one of Baton's refusals. */
export function rpcCodeOf(code: string | undefined, status: number): number {
  if (code === A2aErrorCode.TaskNotFound) return A2A_RPC.taskNotFound;
  if (code === A2aErrorCode.TaskClosed) return A2A_RPC.taskNotCancelable;
  if (status === 400 || status === 404) return A2A_RPC.invalidParams;
  return -32000;
}
