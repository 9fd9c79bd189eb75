import { createServer, Socket } from 'node:net';

export interface TcpTrap {
  port: number;
  /** Connections received so far. */
  connections(): number;
  close(): Promise<void>;
}

/** A TCP listener on 127.0.0.1 (random port) that counts connections and never answers: a silent port. */
export async function startTcpTrap(): Promise<TcpTrap> {
  let count = 0;
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    count += 1;
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}
