import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { WebSocket } from 'ws';
import { ConnectorFrame, parseFrame, ServedPlugin, ServerFrame, TUNNEL_CLOSE, TunnelConfigFrame, TunnelPrefix, TunnelRequest } from '../../modules/tunnel/tunnel-frames';
import { forgetToken, readToken, saveToken, signInByDevice } from './device-sign-in';
import { HttpToolServer } from './http-server';
import { StdioToolServer } from './stdio-server';
import { ToolServer } from './tool-server';

/** A tool server the person named on the command line. */
export type PluginSpec = { prefix: TunnelPrefix; name: string; kind: 'stdio'; command: string; args: string[] } | { prefix: TunnelPrefix; name: string; kind: 'http'; url: URL };

export interface ConnectorOptions {
  url: string;
  /** A token given on the command line or in BATON_TOKEN: never stored, never replaced by a sign-in. */
  token?: string;
  tokenFile: string;
  /** The directories the person allows, resolved (symbolic links followed). */
  allowedRoots: string[];
  /** How the filesystem server is started for a set of roots. */
  filesystem: { command: string; args: string[] } | null;
  plugins: PluginSpec[];
  maxBackoffMs: number;
  say(line: string): void;
}

const CONNECTOR_VERSION = '1';
const PING_MS = 15_000;
const CHUNK_BYTES = 64 * 1024;

/**
 * The person's side of the tunnel: one authenticated WebSocket to Baton, kept open with
 * heartbeats and reopened with backoff, and the tool servers it runs and answers for. Nothing on
 * the machine is reachable except through those servers: the filesystem server only ever gets
 * directories inside the roots the person allowed, whatever the workspace asks, and only servers
 * named on the command line are started (the workspace can switch them off, never add one).
 */
export class Connector {
  private readonly servers = new Map<TunnelPrefix, ToolServer>();
  private socket: WebSocket | undefined;
  private stopped = false;
  private workspace: TunnelConfigFrame | undefined;
  private servedRoots: string[] = [];
  private readonly inflight = new Map<string, AbortController>();
  private applying: Promise<void> = Promise.resolve();

  constructor(private readonly options: ConnectorOptions) {}

  async run(): Promise<void> {
    await this.apply();
    let attempt = 0;
    let token = this.options.token ?? readToken(this.options.tokenFile, this.options.url)?.token;
    while (!this.stopped) {
      const outcome = await this.connectOnce(token);
      if (this.stopped) break;
      if (outcome.code === TUNNEL_CLOSE.unauthorized) {
        if (this.options.token) throw new Error('Baton refused the token given: check BATON_TOKEN or --token');
        forgetToken(this.options.tokenFile);
        const stored = await signInByDevice(this.options.url, this.options.say);
        saveToken(this.options.tokenFile, stored);
        token = stored.token;
        attempt = 0;
        continue;
      }
      if (outcome.code === TUNNEL_CLOSE.replaced) {
        // Two connectors of one workspace would take the tunnel from each other forever: the newer one keeps it.
        this.options.say('Another connector of this workspace took over the tunnel: this one stops.');
        await this.stop();
        break;
      }
      if (outcome.opened) attempt = 0;
      const delay = Math.round(Math.min(this.options.maxBackoffMs, 500 * 2 ** attempt) * (0.5 + Math.random() / 2));
      attempt += 1;
      this.options.say(`Disconnected from Baton (${outcome.code}); reconnecting in ${(delay / 1000).toFixed(1)} s`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.socket?.close(1000, 'connector stopped');
    await Promise.all([...this.servers.values()].map((s) => s.stop()));
  }

  private connectOnce(token: string | undefined): Promise<{ code: number; opened: boolean }> {
    const wsUrl = `${this.options.url.replace(/^http/, 'ws')}/tunnel/ws`;
    return new Promise((resolve) => {
      const socket = new WebSocket(wsUrl, { headers: token ? { authorization: `Bearer ${token}` } : {}, handshakeTimeout: 10_000 });
      this.socket = socket;
      let opened = false;
      let lastPong = Date.now();
      const heartbeat = setInterval(() => {
        if (Date.now() - lastPong > 3 * PING_MS) return socket.terminate();
        if (socket.readyState === WebSocket.OPEN) socket.ping();
      }, PING_MS);
      socket.on('pong', () => (lastPong = Date.now()));
      socket.on('ping', () => (lastPong = Date.now()));
      socket.on('open', () => {
        opened = true;
        this.options.say(`Connected to ${this.options.url}`);
        void this.manifest().then((m) => this.send({ t: 'hello', version: CONNECTOR_VERSION, plugins: m.plugins, roots: m.roots, allowed_roots: this.options.allowedRoots }));
      });
      socket.on('message', (raw) => {
        const frame = parseFrame<ServerFrame>(raw);
        if (frame) void this.onFrame(frame);
      });
      socket.on('unexpected-response', (_req, res) => {
        socket.terminate();
        resolve({ code: res.statusCode === 401 ? TUNNEL_CLOSE.unauthorized : (res.statusCode ?? 1006), opened });
      });
      socket.on('error', () => undefined);
      socket.on('close', (code) => {
        clearInterval(heartbeat);
        for (const controller of this.inflight.values()) controller.abort();
        this.inflight.clear();
        resolve({ code, opened });
      });
    });
  }

  private send(frame: ConnectorFrame): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  private async onFrame(frame: ServerFrame): Promise<void> {
    switch (frame.t) {
      case 'req':
        return this.answer(frame.id, frame.request);
      case 'cancel':
        this.inflight.get(frame.id)?.abort();
        this.inflight.delete(frame.id);
        return;
      case 'config':
        this.workspace = frame;
        await this.apply();
        return this.send({ t: 'manifest', ...(await this.manifest()), seq: frame.seq });
      case 'refresh':
        return this.send({ t: 'manifest', ...(await this.manifest()), seq: frame.seq });
      case 'active_repo': {
        const extract = this.servers.get('extract');
        if (extract?.running && (await extract.tools()).some((t) => t.name === 'set_active_repo')) await extract.callTool('set_active_repo', { path: frame.path });
        return;
      }
    }
  }

  private async answer(id: string, request: TunnelRequest): Promise<void> {
    await this.applying;
    const server = this.servers.get(request.prefix);
    if (!server) {
      return this.send({
        t: 'fail',
        id,
        status: 404,
        detail: `this connector serves no ${request.prefix} tool server: start \`baton connect\` with --plugin ${request.prefix}=<command or URL>${request.prefix === 'fs' ? ' or --root <directory>' : ''}`,
      });
    }
    const controller = new AbortController();
    this.inflight.set(id, controller);
    try {
      const answer = await server.handle(request, controller.signal);
      if (controller.signal.aborted) return;
      if (typeof answer.body === 'string') {
        // A whole answer's frames are sent in one turn, one after the other.
        const bytes = Buffer.from(answer.body, 'utf8');
        this.send({ t: 'head', id, status: answer.status, headers: answer.headers });
        for (let at = 0; at < bytes.length; at += CHUNK_BYTES) this.send({ t: 'chunk', id, data: bytes.subarray(at, at + CHUNK_BYTES).toString('base64') });
        this.send({ t: 'end', id });
        return;
      }
      this.send({ t: 'head', id, status: answer.status, headers: answer.headers });
      for await (const part of answer.body) {
        if (controller.signal.aborted) return;
        this.send({ t: 'chunk', id, data: Buffer.from(part).toString('base64') });
      }
      this.send({ t: 'end', id });
    } catch (error) {
      if (!controller.signal.aborted) this.send({ t: 'fail', id, status: 502, detail: `the ${server.name} server failed: ${(error as Error).message}`.slice(0, 300) });
    } finally {
      this.inflight.delete(id);
    }
  }

  /** Starts, restarts or stops the servers to match the command line and the workspace's wishes. */
  private apply(): Promise<void> {
    this.applying = this.applying.then(() => this.applyNow()).catch((error: Error) => this.options.say(`Could not apply the workspace's settings: ${error.message}`));
    return this.applying;
  }

  private async applyNow(): Promise<void> {
    const enabled = (prefix: TunnelPrefix) => this.workspace?.plugins.find((p) => p.prefix === prefix)?.enabled ?? true;
    const roots = this.rootsToServe();
    const wanted: { spec: PluginSpec; key: string }[] = [];
    if (this.options.filesystem && roots.length > 0 && enabled('fs') && !this.options.plugins.some((p) => p.prefix === 'fs')) {
      wanted.push({
        spec: { prefix: 'fs', name: 'filesystem', kind: 'stdio', command: this.options.filesystem.command, args: [...this.options.filesystem.args, ...roots] },
        key: roots.join('\n'),
      });
    }
    for (const spec of this.options.plugins) if (enabled(spec.prefix)) wanted.push({ spec, key: '' });
    for (const [prefix, server] of this.servers) {
      if (!wanted.some((w) => w.spec.prefix === prefix) || (prefix === 'fs' && roots.join('\n') !== this.servedRoots.join('\n'))) {
        await server.stop();
        this.servers.delete(prefix);
      }
    }
    for (const { spec } of wanted) {
      if (this.servers.has(spec.prefix)) continue;
      const server = spec.kind === 'http' ? new HttpToolServer(spec.prefix, spec.name, spec.url) : new StdioToolServer(spec.prefix, spec.name, spec.command, spec.args);
      this.servers.set(spec.prefix, server);
      try {
        await server.start();
      } catch (error) {
        this.options.say(`The ${spec.name} server did not start: ${(error as Error).message}`);
      }
    }
    this.servedRoots = roots;
  }

  /**
   * The directories the filesystem server gets: the workspace's roots that lie inside a root the
   * person allowed (after following links), or, when the workspace names none, the allowed roots.
   */
  private rootsToServe(): string[] {
    const allowed = this.options.allowedRoots;
    const asked = this.workspace?.roots ?? [];
    if (asked.length === 0) return allowed;
    const inside = (dir: string) => allowed.some((root) => dir === root || dir.startsWith(root.endsWith(sep) ? root : root + sep));
    return [
      ...new Set(
        asked.flatMap((dir) => {
          try {
            const real = realpathSync(dir);
            return inside(real) ? [real] : [];
          } catch {
            return [];
          }
        }),
      ),
    ];
  }

  private async manifest(): Promise<{ plugins: ServedPlugin[]; roots: string[] }> {
    await this.applying;
    const plugins: ServedPlugin[] = [];
    for (const server of this.servers.values()) {
      if (!server.running) {
        plugins.push({ prefix: server.prefix, name: server.name, state: 'failed', tools: [], error: server.lastError || 'not running' });
        continue;
      }
      try {
        plugins.push({ prefix: server.prefix, name: server.name, state: 'running', tools: await server.tools() });
      } catch (error) {
        plugins.push({ prefix: server.prefix, name: server.name, state: 'failed', tools: [], error: (error as Error).message.slice(0, 300) });
      }
    }
    return { plugins, roots: this.servers.has('fs') ? this.servedRoots : [] };
  }
}
