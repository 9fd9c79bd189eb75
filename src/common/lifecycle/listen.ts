import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';

/**
 * How many connections the kernel may hold for Baton before it accepts them. Thousands of agents
 * connect at once when an instance starts or restarts, while its event loop is busy answering the
 * first of them; Node's default of 511 then overflows, and every connection past it waits for TCP
 * to send its SYN again (1 s, 3 s, 7 s, ... later). Linux caps the figure at `net.core.somaxconn`
 * (4096 by default since 5.4).
 */
export const LISTEN_BACKLOG = 4096;

/**
 * `app.listen` with Baton's backlog, on a port and host or on the socket of a listening server
 * (taken over). Nest passes what follows the port on to Node's `server.listen(port, host, backlog)`
 * and `server.listen(handle, backlog)`; its types stop at the host.
 */
export function listenApp(app: INestApplication, port: number | Server, host?: string): Promise<unknown> {
  const listen = app.listen.bind(app) as (...args: unknown[]) => Promise<unknown>;
  return host === undefined ? listen(port, LISTEN_BACKLOG) : listen(port, host, LISTEN_BACKLOG);
}
