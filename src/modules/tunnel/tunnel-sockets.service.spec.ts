import { EventEmitter } from 'node:events';
import { WebSocket } from 'ws';
import { ConnectorFrame, TUNNEL_CLOSE } from './tunnel-frames';
import { AnswerSink, TunnelSockets } from './tunnel-sockets.service';

/** A socket that records what it was sent and how it was closed. */
class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  sent: unknown[] = [];
  closed: number | undefined;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code: number) {
    this.closed = code;
    this.readyState = WebSocket.CLOSED;
  }
}

const hello: Extract<ConnectorFrame, { t: 'hello' }> = {
  t: 'hello',
  version: '1',
  plugins: [{ prefix: 'fs', name: 'filesystem', state: 'running', tools: [{ name: 'list_directory' }] }],
  roots: ['/home/ada/work'],
  allowed_roots: ['/home/ada/work'],
};

function recorder() {
  const events: string[] = [];
  const sink: AnswerSink = {
    head: (status) => events.push(`head ${status}`),
    chunk: (data) => events.push(`chunk ${data.toString()}`),
    end: () => events.push('end'),
    fail: (status, detail) => events.push(`fail ${status} ${detail}`),
  };
  return { events, sink };
}

const request = { prefix: 'fs' as const, method: 'POST' as const, path: '/', headers: {}, body: '{}' };

describe('TunnelSockets', () => {
  test('a request reaches only its own workspace’s socket, and its answer comes back frame by frame', () => {
    const sockets = new TunnelSockets();
    const ada = new FakeSocket();
    sockets.attach('ada', ada as unknown as WebSocket, hello);
    const { events, sink } = recorder();
    expect(sockets.forward('bob', request, sink)).toBe(false);
    expect(sockets.forward('ada', request, sink)).toEqual(expect.any(Function));
    const [sent] = ada.sent as { t: string; id: string }[];
    expect(sent).toMatchObject({ t: 'req', request });
    sockets.receive(ada as unknown as WebSocket, { t: 'head', id: sent.id, status: 200, headers: {} });
    sockets.receive(ada as unknown as WebSocket, { t: 'chunk', id: sent.id, data: Buffer.from('{"ok":1}').toString('base64') });
    sockets.receive(ada as unknown as WebSocket, { t: 'end', id: sent.id });
    expect(events).toEqual(['head 200', 'chunk {"ok":1}', 'end']);
  });

  test('a newer connector of the same workspace replaces the older: told with 4409, its open requests fail with 502', () => {
    const sockets = new TunnelSockets();
    const first = new FakeSocket();
    const second = new FakeSocket();
    sockets.attach('ada', first as unknown as WebSocket, hello);
    const { events, sink } = recorder();
    sockets.forward('ada', request, sink);
    sockets.attach('ada', second as unknown as WebSocket, hello);
    expect(first.closed).toBe(TUNNEL_CLOSE.replaced);
    expect(events).toEqual(['fail 502 the connector was replaced by a newer one of the same workspace']);
    expect(sockets.get('ada')?.socket).toBe(second);
    // The old socket's late answers reach no one.
    sockets.detach(first as unknown as WebSocket);
    expect(sockets.get('ada')?.socket).toBe(second);
  });

  test('a connector that leaves fails what it had not answered, and a cancelled request is told to the connector', () => {
    const sockets = new TunnelSockets();
    const ada = new FakeSocket();
    sockets.attach('ada', ada as unknown as WebSocket, hello);
    const a = recorder();
    const b = recorder();
    const cancel = sockets.forward('ada', request, a.sink) as () => void;
    sockets.forward('ada', request, b.sink);
    cancel();
    expect(ada.sent.at(-1)).toMatchObject({ t: 'cancel' });
    sockets.detach(ada as unknown as WebSocket);
    expect(a.events).toEqual([]);
    expect(b.events).toEqual(['fail 502 the connector disconnected before answering']);
    expect(sockets.get('ada')).toBeUndefined();
  });

  test('what a connector reports is bounded and typed before anyone reads it', () => {
    const sockets = new TunnelSockets();
    const link = sockets.attach('ada', new FakeSocket() as unknown as WebSocket, {
      ...hello,
      version: 'x'.repeat(500),
      plugins: [{ prefix: 'fs', name: 'n'.repeat(500), state: 'weird' as never, tools: [{ name: 'a' }] }, 'junk' as never],
      roots: ['/a', 42 as never],
    });
    expect(link.version).toHaveLength(40);
    expect(link.plugins).toEqual([{ prefix: 'fs', name: 'n'.repeat(80), state: 'stopped', tools: [{ name: 'a', description: undefined }] }]);
    expect(link.roots).toEqual(['/a']);
  });
});
