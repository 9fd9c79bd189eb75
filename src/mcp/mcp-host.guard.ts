import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { RequestError } from '../common/errors/request-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * DNS-rebinding protection required by the MCP transport specification: the
 * Host header, and the Origin header when a browser sends one, must name this
 * service (APP_URL's host, SERVICE_ALLOWED_HOSTS, and loopback names when
 * self-hosted). Refusals keep Baton's `{detail}` error shape.
 */
@Injectable()
export class McpHostGuard implements CanActivate {
  private readonly allowed: Set<string>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.allowed = new Set([new URL(config.baseUrl).hostname, ...config.allowedHosts.map((h) => h.toLowerCase())]);
    if (!config.isHosted) LOOPBACK_NAMES.forEach((name) => this.allowed.add(name));
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const host = hostnameOf(request.headers.host);
    if (!host || !this.allowed.has(host)) throw RequestError.forbidden(`Host ${request.headers.host ?? '(none)'} is not allowed for MCP`);
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== 'null') {
      const originHost = hostnameOf(origin.replace(/^[a-z][a-z0-9+.-]*:\/\//i, ''));
      if (!originHost || !this.allowed.has(originHost)) throw RequestError.forbidden(`Origin ${origin} is not allowed for MCP`);
    } else if (origin === 'null') {
      throw RequestError.forbidden('Origin null is not allowed for MCP');
    }
    return true;
  }
}

function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
