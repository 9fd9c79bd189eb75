import { httpUrl, integer } from '../config.parsers';
import { variable } from './variable';

/** The tunnel's proxy of the public MCP registry (GET /tunnel/registry). */
export const TUNNEL_VARIABLES = {
  mcpRegistryUrl: variable({
    name: 'SERVICE_MCP_REGISTRY_URL',
    description: 'base URL of the public MCP registry that GET /tunnel/registry proxies (its /v0/servers)',
    sensitive: false,
    parse: httpUrl,
    default: 'https://registry.modelcontextprotocol.io',
  }),
  mcpRegistryTimeoutMs: variable({
    name: 'SERVICE_MCP_REGISTRY_TIMEOUT_MS',
    description: 'how long GET /tunnel/registry waits for the registry before answering 504',
    sensitive: false,
    parse: integer(100, 60_000),
    default: 5000,
  }),
  mcpRegistryCacheS: variable({
    name: 'SERVICE_MCP_REGISTRY_CACHE_SECONDS',
    description: 'how long an answer of the MCP registry is reused for the same query',
    sensitive: false,
    parse: integer(0, 86_400),
    default: 300,
  }),
} as const;
