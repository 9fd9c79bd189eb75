import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModuleOptions, ThrottlerRequest, ThrottlerStorage, getOptionsToken, getStorageToken } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { bearerToken, hashApiToken } from '../modules/tenants/api-token.util';

/**
 * One MCP budget per token (hosted): 100 calls a minute by default. A call is
 * one JSON-RPC message, so a batch (an array body) costs one per message; a
 * request that carries no message (opening the SSE stream) costs one, and the
 * 405 answers of GET and DELETE /mcp cost nothing. Both transports, `/mcp` and
 * `/mcp/sse`, draw on the same counter, whose key is the token's hash, never
 * the token. Self-hosted instances have no tokens and no limit.
 */
@Injectable()
export class McpThrottlerGuard extends ThrottlerGuard {
  constructor(
    @Inject(getOptionsToken()) options: ThrottlerModuleOptions,
    @Inject(getStorageToken()) storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super(options, storage, reflector);
  }

  protected override async shouldSkip(_context: ExecutionContext): Promise<boolean> {
    return !this.config.isHosted;
  }

  protected override async getTracker(request: Request): Promise<string> {
    const token = bearerToken(request.headers.authorization);
    return token ? `mcp:token:${hashApiToken(token)}` : `mcp:ip:${request.ip}`;
  }

  /** The same key whichever route is asked, so the transports share one budget. */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  /**
   * Takes one unit per call in the request, stopping at the first one over the
   * limit: a batch that does not fit is refused whole, and what it took stays
   * taken, as a refused single request's does. The storage only counts by one,
   * so a batch costs a round trip per call (at most limit + 1).
   */
  protected override async handleRequest({ context, limit, ttl, throttler, blockDuration, getTracker, generateKey }: ThrottlerRequest): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const tracker = await getTracker(req, context);
    const key = generateKey(context, tracker, throttler.name ?? 'default');
    const calls = callsIn(req);
    let record = await this.storageService.increment(key, ttl, limit, blockDuration, throttler.name ?? 'default');
    for (let i = 1; i < calls && !record.isBlocked; i++) {
      record = await this.storageService.increment(key, ttl, limit, blockDuration, throttler.name ?? 'default');
    }
    if (record.isBlocked) {
      res.setHeader('Retry-After', record.timeToBlockExpire);
      await this.throwThrottlingException(context, { ...record, limit, ttl, key, tracker });
    }
    res.setHeader('X-RateLimit-Limit', limit);
    res.setHeader('X-RateLimit-Remaining', Math.max(0, limit - record.totalHits));
    res.setHeader('X-RateLimit-Reset', record.timeToExpire);
    return true;
  }
}

/**
 * The MCP SDK refuses a batch of more than 100 messages (400) without running
 * any; counting such a batch as 101 makes it cost more than any allowed batch
 * while a huge array cannot make the guard loop over it.
 */
const MOST_CALLS_COUNTED = 101;

/** JSON-RPC messages in the body: each element of a batch, at least one per request. */
function callsIn(req: Request): number {
  const body: unknown = req.body;
  return Array.isArray(body) && body.length > 0 ? Math.min(body.length, MOST_CALLS_COUNTED) : 1;
}
