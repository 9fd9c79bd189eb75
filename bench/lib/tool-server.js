'use strict';
/**
 * A local MCP tool server over Streamable HTTP (stateless, JSON answers) with one tool, `echo`,
 * run as its own process by the tunnel benchmark: what a person's machine serves beside the
 * connector. Prints `listening <port>` once it listens.
 */
const { createServer } = require('node:http');
const path = require('node:path');

const root = process.argv[2];
const { McpServer } = require(path.join(root, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'cjs', 'server', 'mcp.js'));
const { StreamableHTTPServerTransport } = require(path.join(root, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'cjs', 'server', 'streamableHttp.js'));
const { z } = require(path.join(root, 'node_modules', 'zod'));

const http = createServer((req, res) => {
  let raw = '';
  req.on('data', (d) => (raw += d));
  req.on('end', () => {
    const server = new McpServer({ name: 'bench-tools', version: '1.0.0' });
    server.registerTool('echo', { description: 'answers its text', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void server.close());
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res, raw ? JSON.parse(raw) : undefined))
      .catch(() => res.destroy());
  });
});
http.listen(0, '127.0.0.1', () => console.log(`listening ${http.address().port}`));
