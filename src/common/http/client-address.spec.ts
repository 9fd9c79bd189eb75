import express from 'express';
import type { IncomingMessage } from 'node:http';
import { clientAddress } from './client-address';

/** An upgrade request as the WebSocket server hands it over: headers and the socket it came on. */
const upgrade = (remoteAddress: string, headers: Record<string, string> = {}) => ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

describe('clientAddress', () => {
  test('without trust proxy it is the socket address, whatever X-Forwarded-For says', () => {
    const app = express();
    expect(clientAddress(app, upgrade('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }))).toBe('127.0.0.1');
  });

  test("with the app's trust proxy setting it reads X-Forwarded-For as Express does", () => {
    const app = express();
    app.set('trust proxy', 'loopback');
    expect(clientAddress(app, upgrade('127.0.0.1', { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' }))).toBe('203.0.113.9');
    // A proxy that is not trusted is the client.
    expect(clientAddress(app, upgrade('192.0.2.50', { 'x-forwarded-for': '203.0.113.9' }))).toBe('192.0.2.50');
  });
});
