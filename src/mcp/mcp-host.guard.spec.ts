import type { ExecutionContext } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { McpHostGuard } from './mcp-host.guard';

function guard(config: Partial<AppConfig>) {
  return new McpHostGuard({ allowedHosts: [], isHosted: false, ...config } as AppConfig);
}

function passes(g: McpHostGuard, headers: Record<string, string>, protocol = 'http'): boolean {
  const context = { switchToHttp: () => ({ getRequest: () => ({ protocol, headers }) }) } as unknown as ExecutionContext;
  try {
    return g.canActivate(context);
  } catch {
    return false;
  }
}

describe('McpHostGuard', () => {
  const selfHosted = guard({ baseUrl: 'http://127.0.0.1:7878' });
  const hosted = guard({ baseUrl: 'https://baton.example.com', isHosted: true, allowedHosts: ['Alias.Example.com'] });

  test('refuses an Origin on another port of the service host', () => {
    expect(passes(selfHosted, { host: '127.0.0.1:7878', origin: 'http://127.0.0.1:9999' })).toBe(false);
    expect(passes(selfHosted, { host: '127.0.0.1:7878', origin: 'http://127.0.0.1:7878' })).toBe(true);
  });

  test('tells https from http', () => {
    expect(passes(selfHosted, { host: '127.0.0.1:7878', origin: 'https://127.0.0.1:7878' })).toBe(false);
    expect(passes(hosted, { host: 'baton.example.com', origin: 'http://baton.example.com' }, 'http')).toBe(false);
    expect(passes(hosted, { host: 'baton.example.com', origin: 'https://baton.example.com' }, 'http')).toBe(true);
  });

  test('accepts any case and a trailing dot as the same host', () => {
    expect(passes(selfHosted, { host: 'LOCALHOST.:7878', origin: 'http://LocalHost.:7878' })).toBe(true);
    expect(passes(hosted, { host: 'BATON.example.COM.', origin: 'https://Baton.Example.Com.' })).toBe(true);
    expect(passes(hosted, { host: 'alias.example.com', origin: 'https://ALIAS.example.com' })).toBe(true);
    expect(passes(hosted, { host: 'alias.example.com', origin: 'http://alias.example.com' })).toBe(false);
  });

  test('treats the default port written out or left off as the same origin', () => {
    expect(passes(hosted, { host: 'baton.example.com:443', origin: 'https://baton.example.com:443' })).toBe(true);
    expect(passes(hosted, { host: 'baton.example.com', origin: 'https://baton.example.com:443' })).toBe(true);
    expect(passes(hosted, { host: 'baton.example.com', origin: 'https://baton.example.com:8443' })).toBe(false);
    expect(passes(selfHosted, { host: 'localhost:80', origin: 'http://localhost' })).toBe(true);
    expect(passes(selfHosted, { host: 'localhost', origin: 'http://localhost:80' })).toBe(true);
    expect(passes(selfHosted, { host: 'localhost', origin: 'http://localhost:8080' })).toBe(false);
  });

  test('reads IPv6 loopback in brackets, in any spelling', () => {
    expect(passes(selfHosted, { host: '[::1]:7878', origin: 'http://[::1]:7878' })).toBe(true);
    expect(passes(selfHosted, { host: '[0:0:0:0:0:0:0:1]:7878', origin: 'http://[::1]:7878' })).toBe(true);
    expect(passes(selfHosted, { host: '[::1]:7878', origin: 'http://[::1]:9999' })).toBe(false);
  });

  test('refuses a foreign host, a null Origin and non-web schemes', () => {
    expect(passes(selfHosted, { host: 'evil.example:7878' })).toBe(false);
    expect(passes(selfHosted, { host: '127.0.0.1:7878', origin: 'http://evil.example:7878' })).toBe(false);
    expect(passes(selfHosted, { host: '127.0.0.1:7878', origin: 'null' })).toBe(false);
    expect(passes(selfHosted, { host: '127.0.0.1:7878', origin: 'file://127.0.0.1' })).toBe(false);
    expect(passes(hosted, { host: 'localhost' })).toBe(false);
  });
});
