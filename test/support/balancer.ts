import { Agent, createServer, IncomingMessage, request } from 'node:http';
import { connect, Socket } from 'node:net';

export interface Balancer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Requests (and WebSocket upgrades) each backend was sent, in the order of `backends`. */
  sent: number[];
  /** Requests answered 502 because the backend broke off after it was sent the request. */
  broken: number;
  /** Requests sent to the next backend because one refused the connection. */
  retried: number;
  close(): Promise<void>;
}

/** Errors of a connection that never reached the backend: the request is safe to send elsewhere. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH']);

/**
 * A small round-robin load balancer on loopback in front of `backends` (http://host:port), as a
 * Kubernetes Service or nginx would be: each request and each WebSocket upgrade goes to the next
 * backend in turn. A backend that refuses the connection (stopped, killed) is skipped and the
 * request sent to the next one; one that breaks off a request it was sent answers 502, as the
 * request may have been done (the client decides whether to retry).
 */
export async function startBalancer(backends: string[]): Promise<Balancer> {
  const targets = backends.map((b) => new URL(b));
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const sockets = new Set<Socket>();
  let next = 0;
  const state = { sent: targets.map(() => 0), broken: 0, retried: 0 };
  const pick = () => next++ % targets.length;

  // A request refused by one backend goes to the next one in the list (not the next in turn, which
  // concurrent requests share), so that each backend is tried at most once.
  const forward = (
    req: IncomingMessage,
    body: Buffer,
    reply: (status: number, headers: NodeJS.Dict<string | string[]>, from?: IncomingMessage) => void,
    index = pick(),
    tries = 0,
  ) => {
    const target = targets[index];
    state.sent[index]++;
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent });
    let connected = false;
    upstream.on('socket', (s) => (s.connecting ? s.once('connect', () => (connected = true)) : (connected = true)));
    upstream.on('response', (res) => reply(res.statusCode ?? 502, res.headers, res));
    upstream.on('error', (error: Error & { code?: string }) => {
      if ((!connected || NOT_CONNECTED.has(error.code ?? '')) && tries < targets.length - 1) {
        state.retried++;
        forward(req, body, reply, (index + 1) % targets.length, tries + 1);
        return;
      }
      state.broken++;
      reply(502, { 'content-type': 'application/json' });
    });
    upstream.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      forward(req, Buffer.concat(chunks), (status, headers, from) => {
        if (res.headersSent) return void res.destroy();
        res.writeHead(status, headers);
        if (from) {
          from.pipe(res);
          from.on('error', () => res.destroy());
          res.on('close', () => from.destroy());
        } else res.end(JSON.stringify({ detail: 'bad gateway: the instance broke off the request' }));
      });
    });
  });

  server.on('upgrade', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('error', () => client.destroy());
    client.on('close', () => sockets.delete(client));
    const open = (index: number, tries: number) => {
      const target = targets[index];
      state.sent[index]++;
      const upstream = connect(Number(target.port), target.hostname);
      let connected = false;
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.once('connect', () => {
        connected = true;
        const lines = [`${req.method} ${req.url} HTTP/1.1`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        upstream.write(lines.join('\r\n') + '\r\n\r\n');
        if (head.length) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
        client.on('error', () => upstream.destroy());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      upstream.on('error', () => {
        if (!connected && tries < targets.length - 1) {
          state.retried++;
          open((index + 1) % targets.length, tries + 1);
          return;
        }
        client.destroy();
      });
    };
    open(pick(), 0);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get sent() {
      return state.sent;
    },
    get broken() {
      return state.broken;
    },
    get retried() {
      return state.retried;
    },
    async close() {
      for (const s of sockets) s.destroy();
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
