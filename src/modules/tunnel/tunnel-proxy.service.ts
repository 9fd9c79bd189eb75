import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { currentTenant, extendRequestDeadline } from '../../../libs/tenancy';
import { toErrorResponse } from '../../common/errors/error-response';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { FORWARDED_REQUEST_HEADERS, FORWARDED_RESPONSE_HEADERS, isTunnelPrefix, TunnelRequest } from './tunnel-frames';
import { TunnelRelay } from './tunnel-relay.service';
import { TunnelError } from './tunnel.errors';

/** How long a tool server may take to start its answer (a tool call can be slow; MCP clients wait about a minute). */
export const TUNNEL_ANSWER_TIMEOUT_MS = 120_000;

/**
 * Forwards one proxied MCP request to the workspace's connector and streams its answer back. The
 * tenant in the path must be the caller's own: any other answers 404 like an unknown one, so no
 * request can reach, or learn of, another workspace's tunnel. Only the MCP headers travel (never
 * the caller's token or cookies).
 */
@Injectable()
export class TunnelProxyService implements BeforeApplicationShutdown {
  /** Answers still open (streams): ended when Baton stops, so that it does not wait on them. */
  private readonly open = new Set<Response>();

  constructor(
    private readonly relay: TunnelRelay,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async handle(req: Request, res: Response): Promise<void> {
    const prefix = req.path.split('/')[1] ?? '';
    const tenantId = String(req.params.tenant_id ?? '');
    if (!isTunnelPrefix(prefix)) throw TunnelError.notFound(`no tool proxy ${prefix}`);
    if (currentTenant().tenantId !== tenantId.toLowerCase()) throw TunnelError.tenantNotFound(tenantId);
    const request = toTunnelRequest(req, prefix);
    extendRequestDeadline(Date.now() + TUNNEL_ANSWER_TIMEOUT_MS + 5000);
    this.open.add(res);
    await new Promise<void>((resolve) => {
      let started = false;
      let done = false;
      let cancel: (() => void) | undefined;
      const finish = () => {
        this.open.delete(res);
        done = true;
        clearTimeout(timer);
        resolve();
      };
      const refuse = (error: TunnelError) => {
        if (done) return;
        cancel?.();
        const { status, body } = toErrorResponse(error);
        if (!started && !res.headersSent) res.status(status).json(body);
        else res.destroy();
        finish();
      };
      const timer = setTimeout(
        () => refuse(TunnelError.timeout(`the ${prefix} tool server on the connector did not answer within ${TUNNEL_ANSWER_TIMEOUT_MS / 1000} s`)),
        TUNNEL_ANSWER_TIMEOUT_MS,
      );
      res.on('close', () => {
        if (!done) cancel?.();
        finish();
      });
      void this.relay
        .forward(currentTenant().tenantId, request, {
          head: (status, answerHeaders) => {
            if (done || started) return;
            started = true;
            clearTimeout(timer);
            res.status(status);
            for (const name of FORWARDED_RESPONSE_HEADERS) if (answerHeaders[name]) res.setHeader(name, answerHeaders[name]);
            if (req.headers.origin) {
              res.setHeader('Access-Control-Allow-Origin', req.headers.origin);
              res.setHeader('Vary', 'Origin');
              res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id');
            }
            // A stream's headers go at once (the client waits on them); a whole answer goes with its body in one write.
            if (/text\/event-stream/.test(answerHeaders['content-type'] ?? '')) res.flushHeaders();
          },
          chunk: (data) => {
            if (!done && started) res.write(data);
          },
          end: () => {
            if (done) return;
            if (!started) res.status(502).json({ detail: 'the connector ended its answer without a status', code: 'TUNNEL_UPSTREAM_FAILED' });
            else res.end();
            finish();
          },
          fail: (status, detail) => refuse(status === 404 ? TunnelError.notFound(detail) : status === 503 ? TunnelError.notConnected(detail) : TunnelError.upstream(detail)),
        })
        .then((forwarded) => {
          if (forwarded) cancel = forwarded;
          else refuse(TunnelError.notConnected(this.howToConnect()));
        });
    });
  }

  beforeApplicationShutdown(): void {
    for (const res of this.open) res.destroy();
    this.open.clear();
  }

  /** The 503's detail: what is missing and the one command that fixes it. */
  howToConnect(): string {
    const url = this.config.baseUrl;
    return this.config.isHosted
      ? `no connector is connected for this workspace: on the machine whose tools you want to use, run \`npx baton connect --url ${url} --root <directory>\` and approve the sign-in it shows`
      : `no connector is connected: on this machine run \`npx baton connect --url ${url} --root <directory>\``;
  }
}

/** The request as it travels: what followed the tenant id, the MCP headers only, the body as text. */
function toTunnelRequest(req: Request, prefix: TunnelRequest['prefix']): TunnelRequest {
  const rest = req.params.rest as unknown;
  const restPath = Array.isArray(rest) ? rest.join('/') : typeof rest === 'string' ? rest : '';
  const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return {
    prefix,
    method: req.method === 'POST' ? 'POST' : 'GET',
    path: `/${restPath}${query}`,
    headers,
    body: req.method === 'POST' && req.body !== undefined ? (typeof req.body === 'string' ? req.body : JSON.stringify(req.body)) : null,
  };
}
