/**
 * Whether a JSON-RPC message takes nothing from the MCP budget: reading or
 * subscribing to a resource (`resources/...`), and the client's answer to a
 * question Baton asked it (a response, such as an elicitation's). Neither is
 * a tool call.
 */
export function freeOfBudget(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { method } = message as { method?: unknown };
  if (typeof method === 'string') return method.startsWith('resources/');
  return 'id' in message && ('result' in message || 'error' in message);
}
