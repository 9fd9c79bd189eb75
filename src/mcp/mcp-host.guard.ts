import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { RequestError } from '../common/errors/request-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const KEPT_AUTHORITIES = 256;

/**
 * DNS-rebinding protection required by the MCP transport specification: the
 * Host header, and the Origin header when a browser sends one, must name this
 * service (APP_URL's host, SERVICE_ALLOWED_HOSTS, and loopback names when
 * self-hosted). An Origin is a whole origin: besides an allowed host name it
 * must carry the scheme and port of APP_URL, or of the request it arrives with,
 * since a page on another port of the same host is another site. Names are
 * compared in one spelling (lower case, no trailing dot, default port dropped,
 * IPv6 in brackets). Refusals keep Baton's `{detail}` error shape.
 */
@Injectable()
export class McpHostGuard implements CanActivate {
  private readonly allowed: Set<string>;
  private readonly appScheme: string;
  private readonly appPort: string;
  private readonly isHosted: boolean;
  private readonly authorities = new Map<string, Authority | undefined>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const appUrl = new URL(config.baseUrl);
    this.appScheme = appUrl.protocol;
    this.appPort = effectivePort(appUrl);
    this.isHosted = config.isHosted;
    this.allowed = new Set([normalHostname(appUrl.hostname)]);
    for (const host of config.allowedHosts) {
      const name = parseAuthority('http:', host)?.hostname;
      if (name) this.allowed.add(name);
    }
    if (!config.isHosted) LOOPBACK_NAMES.forEach((name) => this.allowed.add(name));
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const scheme = `${request.protocol}:`;
    const host = this.authority(scheme, request.headers.host);
    if (!host || !this.allowed.has(host.hostname)) throw RequestError.forbidden(`Host ${request.headers.host ?? '(none)'} is not allowed for MCP`);
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    if (!this.originAllowed(origin, scheme, host.port)) throw RequestError.forbidden(`Origin ${origin} is not allowed for MCP`);
    return true;
  }

  /**
   * parseAuthority, remembered: it builds a URL, and every MCP request of a
   * client sends the same Host. Clients choose the header, so only so many
   * spellings are kept.
   */
  private authority(scheme: string, value: string | undefined): Authority | undefined {
    const key = `${scheme}//${value}`;
    if (this.authorities.has(key)) return this.authorities.get(key);
    const authority = parseAuthority(scheme, value);
    if (this.authorities.size < KEPT_AUTHORITIES) this.authorities.set(key, authority);
    return authority;
  }

  /**
   * Allowed: an allowed host name at APP_URL's scheme and port, or (self-hosted
   * only) at the scheme and port this request came in on. Hosted instances sit
   * behind a TLS proxy, where the request's own scheme says nothing.
   */
  private originAllowed(origin: string, requestScheme: string, requestPort: string): boolean {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false; // 'null' (sandboxed or file pages) and anything unparsable
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (!this.allowed.has(normalHostname(url.hostname))) return false;
    const port = effectivePort(url);
    if (url.protocol === this.appScheme && port === this.appPort) return true;
    return !this.isHosted && url.protocol === requestScheme && port === requestPort;
  }
}

interface Authority {
  hostname: string;
  port: string;
}

/** A Host header (or a host[:port] entry) read under `scheme`, in Baton's one spelling. */
function parseAuthority(scheme: string, value: string | undefined): Authority | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(`${scheme}//${value}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
    return { hostname: normalHostname(url.hostname), port: effectivePort(url) };
  } catch {
    return undefined;
  }
}

/** The port always written, so `https://x` and `https://x:443` are one origin. */
function effectivePort(url: URL): string {
  if (url.port) return url.port;
  return url.protocol === 'https:' ? '443' : '80';
}

/** URL already lower-cases names and brackets IPv6; a trailing dot names the same (fully qualified) host. */
function normalHostname(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}
