/**
 * The MCP configuration file push-mcp-template commits: Baton's `/mcp` endpoint, and hosted the
 * Authorization header as a placeholder the assistant's environment fills. Never a real token.
 */
export function mcpTemplate(baseUrl: string, hosted: boolean): string {
  const server: Record<string, unknown> = { type: 'http', url: `${baseUrl.replace(/\/$/, '')}/mcp` };
  if (hosted) server.headers = { Authorization: 'Bearer ${BATON_API_TOKEN}' };
  return `${JSON.stringify({ mcpServers: { baton: server } }, null, 2)}\n`;
}
