import { createServer, IncomingMessage, Server } from 'node:http';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

/**
 * A local HTTP server that records every request: a notify URL receiver, an
 * operator ntfy endpoint, or the e-mail provider's API (POST /emails answers
 * `{id}` the way the provider does).
 */
export class Receiver {
  readonly requests: Received[] = [];
  status = 200;
  /** When set, the body answered to each request (a model provider's completion, say; it may wait) instead of the e-mail provider's `{id}`. */
  reply: ((request: Received) => unknown | Promise<unknown>) | null = null;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<Receiver> {
    let receiver!: Receiver;
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        let body: unknown = raw;
        try {
          body = raw ? JSON.parse(raw) : undefined;
        } catch {
          // plain text
        }
        const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
        receiver.requests.push(request);
        res.statusCode = receiver.status;
        res.setHeader('content-type', 'application/json');
        if (receiver.reply) return void Promise.resolve(receiver.reply(request)).then((answer) => res.end(JSON.stringify(answer)));
        res.end(JSON.stringify(receiver.status < 300 ? { id: `email-${receiver.requests.length}` } : { name: 'application_error', message: 'down' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    receiver = new Receiver(server, (server.address() as { port: number }).port);
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  at(path: string): Received[] {
    return this.requests.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}
