import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SkipThrottle, Throttle, ThrottlerGuard, ThrottlerModuleOptions, ThrottlerRequest, ThrottlerStorage, getOptionsToken, getStorageToken } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { freeOfBudget } from './sessions/mcp-budget';
import { bearerToken, hashApiToken } from '../modules/tenants/api-token.util';

/** The budget a route draws on, as the module configures it, or none for a route that skips it. */
interface Budget {
  name: string;
  limit: number;
  ttl: number;
  blockDuration: number;
}

/** A route's handler or controller, as Nest's reflector reads their metadata. */
type Target = ReturnType<ExecutionContext['getHandler']>;

/** What the guard does on one route: count against a budget, let it through, or leave it to the library. */
type Rule = Budget | 'free' | 'library';

/**
 * One MCP budget per token (hosted): 100 calls a minute by default. A call is
 * one JSON-RPC message, so a batch (an array body) costs one per message; a
 * request that carries no message (opening the SSE stream) costs one; GET and
 * DELETE /mcp (a session's event stream and end, or the 405 answers), resource
 * reads and subscriptions, and the client's answers to Baton's questions cost
 * nothing. Both transports, `/mcp` and
 * `/mcp/sse`, draw on the same counter, whose key is the token's hash, never
 * the token. Self-hosted instances have no tokens and no limit.
 *
 * Every tool call passes here, so the route's budget is worked out once per
 * route (`@SkipThrottle`, the module's numbers) instead of by the library's
 * own `canActivate` on every request, which looked up ten metadata keys and
 * awaited each number: about a tenth of a tool call's server time
 * (docs/decisions.md, MCP). A route with settings of its own (`@Throttle`), or a
 * module configured with functions or several throttlers, goes through the
 * library's `canActivate` as before.
 */
@Injectable()
export class McpThrottlerGuard extends ThrottlerGuard {
  /** By handler, then controller (a handler could be inherited by several). */
  private readonly rules = new Map<Target, Map<Target, Rule>>();

  constructor(
    @Inject(getOptionsToken()) options: ThrottlerModuleOptions,
    @Inject(getStorageToken()) storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super(options, storage, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.config.isHosted) return true;
    const rule = this.ruleOf(context);
    if (rule === 'free') return true;
    if (rule === 'library') return super.canActivate(context);
    return this.take(context, rule);
  }

  protected override async shouldSkip(_context: ExecutionContext): Promise<boolean> {
    return !this.config.isHosted;
  }

  protected override async getTracker(request: Request): Promise<string> {
    return trackerOf(request);
  }

  /** The same key whichever route is asked, so the transports share one budget. */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  /** The library's path (see `canActivate`): a route's own tracker and key generator are used. */
  protected override async handleRequest({ context, limit, ttl, throttler, blockDuration, getTracker, generateKey }: ThrottlerRequest): Promise<boolean> {
    const name = throttler.name ?? 'default';
    const tracker = await getTracker(context.switchToHttp().getRequest(), context);
    return this.count(context, generateKey(context, tracker, name), tracker, { name, limit, ttl, blockDuration });
  }

  private take(context: ExecutionContext, budget: Budget): Promise<boolean> {
    const tracker = trackerOf(context.switchToHttp().getRequest<Request>());
    return this.count(context, this.generateKey(context, tracker, budget.name), tracker, budget);
  }

  /**
   * Takes one unit per call in the request, stopping at the first one over the
   * limit: a batch that does not fit is refused whole, and what it took stays
   * taken, as a refused single request's does. The storage only counts by one,
   * so a batch costs a round trip per call (at most limit + 1).
   */
  private async count(context: ExecutionContext, key: string, tracker: string, { name, limit, ttl, blockDuration }: Budget): Promise<boolean> {
    const http = context.switchToHttp();
    const res = http.getResponse<Response>();
    const calls = callsIn(http.getRequest<Request>());
    if (calls === 0) return true;
    let record = await this.storageService.increment(key, ttl, limit, blockDuration, name);
    for (let i = 1; i < calls && !record.isBlocked; i++) {
      record = await this.storageService.increment(key, ttl, limit, blockDuration, name);
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

  /** The rule of the route `context` is on, worked out at its first request. */
  private ruleOf(context: ExecutionContext): Rule {
    const [handler, controller] = [context.getHandler(), context.getClass()];
    let byController = this.rules.get(handler);
    if (!byController) this.rules.set(handler, (byController = new Map()));
    let rule = byController.get(controller);
    if (rule === undefined) byController.set(controller, (rule = this.ruleFor([handler, controller])));
    return rule;
  }

  private ruleFor(targets: [Target, Target]): Rule {
    if (this.throttlers.length !== 1 || this.commonOptions.skipIf || this.commonOptions.ignoreUserAgents) return 'library';
    const [throttler] = this.throttlers;
    const name = throttler.name ?? 'default';
    const set = (key: string) => this.reflector.getAllAndOverride<unknown>(key, targets) !== undefined;
    if (this.reflector.getAllAndOverride<boolean>(skipKey(name), targets)) return 'free';
    if (throttlerKeys(name).some(set) || throttler.skipIf || throttler.ignoreUserAgents) return 'library';
    const { limit, ttl, blockDuration = ttl } = throttler;
    if (typeof limit !== 'number' || typeof ttl !== 'number' || typeof blockDuration !== 'number') return 'library';
    return { name, limit, ttl, blockDuration };
  }
}

function trackerOf(request: Request): string {
  const token = bearerToken(request.headers.authorization);
  return token ? `mcp:token:${hashApiToken(token)}` : `mcp:ip:${request.ip}`;
}

/**
 * The metadata keys a decorator of `@nestjs/throttler` writes, read off the decorator itself (its
 * public API) rather than copied from the library's constants, which it does not export.
 */
function keysWrittenBy(decorator: (target: object) => unknown): string[] {
  class Probe {}
  decorator(Probe);
  return Reflect.getOwnMetadataKeys(Probe).filter((key): key is string => typeof key === 'string');
}

/** The key `@SkipThrottle()` sets for the throttler `name`. */
function skipKey(name: string): string {
  const [key] = keysWrittenBy(SkipThrottle({ [name]: true }));
  if (!key) throw new Error('@SkipThrottle() wrote no metadata: @nestjs/throttler changed how routes skip a throttler');
  return key;
}

/** The keys `@Throttle()` sets for the throttler `name`: a route with any of them has settings of its own. */
function throttlerKeys(name: string): string[] {
  const never = () => '';
  return keysWrittenBy(Throttle({ [name]: { limit: 1, ttl: 1, blockDuration: 1, getTracker: never, generateKey: never } }));
}

/**
 * The MCP SDK refuses a batch of more than 100 messages (400) without running
 * any; counting such a batch as 101 makes it cost more than any allowed batch
 * while a huge array cannot make the guard loop over it.
 */
const MOST_CALLS_COUNTED = 101;

/**
 * JSON-RPC messages in the body: each element of a batch, at least one per request, except those
 * free of the budget (resource reads, the client's answers: `freeOfBudget`), which count nothing.
 */
function callsIn(req: Request): number {
  const body: unknown = req.body;
  if (!Array.isArray(body)) return freeOfBudget(body) ? 0 : 1;
  if (body.length === 0) return 1;
  if (body.length >= MOST_CALLS_COUNTED) return MOST_CALLS_COUNTED;
  return body.filter((message) => !freeOfBudget(message)).length;
}
