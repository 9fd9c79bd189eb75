import { Client, ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';

/**
 * The official A2A client (JSON-RPC binding) for one of Baton's agents (a
 * project), built the way an external agent would: from the agent card at
 * `{base}/a2a/{agent_id}/.well-known/agent-card.json`, with the workspace's
 * bearer token on every request (the card's too) when there is one.
 */
export async function a2aClient(baseUrl: string, agentId: string, token?: string): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })], cardResolver: new DefaultAgentCardResolver({ fetchImpl }) });
  return factory.createFromUrl(`${baseUrl}/a2a/${agentId}/`);
}

/** An A2A 1.0 user message in the protocol's JSON form, as an agent sends it. */
export function a2aMessage(text: string, extra: Record<string, unknown> = {}) {
  return { messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'ROLE_USER', parts: [{ text }], ...extra };
}
