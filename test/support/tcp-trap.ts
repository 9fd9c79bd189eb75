import { createServer, Socket } from 'node:net';

/**
 * Host spellings that all name a loopback, private, link-local, unique-local or unspecified
 * address (as written in a URL): every outbound guard must refuse each of them.
 */
export const INTERNAL_HOST_SPELLINGS = [
  '127.0.0.1',
  '2130706433',
  '0x7f000001',
  '0x7f.1',
  '0177.0.0.1',
  '127.1',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::1]',
  'localhost',
  '169.254.169.254',
  '10.0.0.1',
  '192.168.1.1',
  '100.64.0.1',
  '0.0.0.0',
  '[fd00::1]',
];

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
