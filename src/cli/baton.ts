#!/usr/bin/env node
import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { isTunnelPrefix, TUNNEL_PREFIXES } from '../modules/tunnel/tunnel-frames';
import { Connector, PluginSpec } from './connector/connector';
import { defaultTokenFile } from './connector/device-sign-in';

const USAGE = `Usage: baton connect [--url <Baton URL>] [--root <directory>]... [--plugin <prefix>=<command or URL>]...

Connects this machine's tools to Baton through the tunnel, so that the workspace's MCP clients
reach them at <Baton URL>/<prefix>/mcp/<workspace id>. Signs in with your browser the first time.

  --url <url>           Baton's address (default: BATON_URL, else http://localhost:7878)
  --root <directory>    a directory the filesystem server (prefix fs) may serve; repeat for more.
                        The workspace can narrow these from Baton, never widen them.
  --plugin <p>=<cmd>    another tool server: a stdio MCP server command (no shell: split on spaces)
                        or an http(s) URL of a Streamable HTTP MCP server; <p> is one of
                        ${TUNNEL_PREFIXES.join(', ')}
  --token-file <file>   where the sign-in is kept (default: ~/.config/baton/connector-<host>.json)
  --max-backoff-ms <n>  longest wait between two reconnection attempts (default 30000)

The token may also be given in BATON_TOKEN (then it is used as is and never stored).`;

function fail(message: string): never {
  process.stderr.write(`baton: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

/** The locally installed filesystem server when there is one, else the published one through npx. */
function filesystemServer(): { command: string; args: string[] } {
  try {
    const entry = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
    return { command: process.execPath, args: [entry] };
  } catch {
    return { command: process.platform === 'win32' ? 'npx.cmd' : 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'] };
  }
}

function plugin(value: string): PluginSpec {
  const at = value.indexOf('=');
  const prefix = value.slice(0, at);
  const target = value.slice(at + 1).trim();
  if (at < 1 || !isTunnelPrefix(prefix) || !target) fail(`--plugin ${value}: expected <prefix>=<command or URL> with a prefix among ${TUNNEL_PREFIXES.join(', ')}`);
  if (/^https?:\/\//.test(target)) return { prefix, name: prefix, kind: 'http', url: new URL(target) };
  const [command, ...args] = target.split(/\s+/);
  return { prefix, name: basename(command), kind: 'stdio', command, args };
}

async function connect(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      root: { type: 'string', multiple: true, default: [] },
      plugin: { type: 'string', multiple: true, default: [] },
      'token-file': { type: 'string' },
      'max-backoff-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const url = (values.url ?? process.env.BATON_URL ?? 'http://localhost:7878').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(url)) fail(`--url ${url}: expected an http(s) address`);
  const allowedRoots = values.root.map((dir) => {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) fail(`--root ${dir}: not a directory`);
    return realpathSync(dir);
  });
  const maxBackoffMs = values['max-backoff-ms'] ? Number(values['max-backoff-ms']) : 30_000;
  if (!Number.isInteger(maxBackoffMs) || maxBackoffMs < 100) fail('--max-backoff-ms must be a whole number of at least 100');
  const plugins = values.plugin.map(plugin);
  if (allowedRoots.length === 0 && plugins.length === 0) fail('nothing to serve: give at least one --root or --plugin');
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const connector = new Connector({
    url,
    token: process.env.BATON_TOKEN || undefined,
    tokenFile: values['token-file'] ?? defaultTokenFile(url),
    allowedRoots,
    filesystem: allowedRoots.length > 0 ? filesystemServer() : null,
    plugins,
    maxBackoffMs,
    say,
  });
  const stop = () => void connector.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  say(`Serving ${allowedRoots.length} director${allowedRoots.length === 1 ? 'y' : 'ies'}${plugins.length ? ` and ${plugins.map((p) => p.prefix).join(', ')}` : ''} to ${url}`);
  await connector.run();
  process.exit(0);
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'connect') return connect(rest);
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  fail(`unknown command ${command}`);
}

main().catch((error: Error) => {
  process.stderr.write(`baton: ${error.message}\n`);
  process.exit(1);
});
