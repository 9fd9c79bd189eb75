import { HttpException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { SkipThrottle, Throttle, ThrottlerModuleOptions } from '@nestjs/throttler';
import { MemoryThrottlerStorage } from '../common/rate-limit/memory-throttler.storage';
import type { AppConfig } from '../config/app-config';
import { McpThrottlerGuard } from './mcp-throttler.guard';

class Routes {
  plain() {}
  @SkipThrottle()
  free() {}
  @Throttle({ default: { limit: 1, ttl: 60_000 } })
  ownLimit() {}
}

@SkipThrottle()
class FreeRoutes {
  any() {}
}

const storages: MemoryThrottlerStorage[] = [];

async function guardOf(hosted: boolean, options: ThrottlerModuleOptions = { throttlers: [{ name: 'default', ttl: 60_000, limit: 3 }] }) {
  const storage = new MemoryThrottlerStorage();
  storages.push(storage);
  const guard = new McpThrottlerGuard(options, storage, new Reflector(), { isHosted: hosted } as AppConfig);
  await guard.onModuleInit();
  return guard;
}

/** One request to `route` with `token`: whether it passed, the status it was refused with, and the headers set. */
async function call(guard: McpThrottlerGuard, route: (...args: never[]) => unknown, controller: object, token = 'sk_service_one', body: unknown = {}) {
  const headers: Record<string, unknown> = {};
  const req = { headers: { authorization: `Bearer ${token}` }, ip: '127.0.0.1', body };
  const res = { setHeader: (name: string, value: unknown) => (headers[name] = value), header: (name: string, value: unknown) => (headers[name] = value) };
  const context = new ExecutionContextHost([req, res], controller as never, route);
  try {
    return { passed: await guard.canActivate(context), status: undefined, headers };
  } catch (error) {
    return { passed: false, status: (error as HttpException).getStatus(), headers };
  }
}

afterAll(() => storages.forEach((s) => s.onApplicationShutdown()));

describe('McpThrottlerGuard', () => {
  test('hosted, a route counts every call of a token against the module limit and refuses the one past it with 429', async () => {
    const guard = await guardOf(true);
    const calls = [];
    for (let i = 0; i < 4; i++) calls.push(await call(guard, Routes.prototype.plain, Routes));
    expect(calls.map((c) => c.passed)).toEqual([true, true, true, false]);
    expect(calls[3].status).toBe(429);
    expect(calls[0].headers).toMatchObject({ 'X-RateLimit-Limit': 3, 'X-RateLimit-Remaining': 2 });
    expect(calls[2].headers).toMatchObject({ 'X-RateLimit-Remaining': 0 });
    expect(Number(calls[3].headers['Retry-After'])).toBeGreaterThan(0);
    // Another token has its own budget.
    expect((await call(guard, Routes.prototype.plain, Routes, 'sk_service_two')).passed).toBe(true);
  });

  test('a batch costs one unit per message', async () => {
    const guard = await guardOf(true);
    expect((await call(guard, Routes.prototype.plain, Routes, 'sk_service_one', [{}, {}])).headers['X-RateLimit-Remaining']).toBe(1);
    expect((await call(guard, Routes.prototype.plain, Routes, 'sk_service_one', [{}, {}])).status).toBe(429);
  });

  test('@SkipThrottle on a route or its controller takes nothing from the budget', async () => {
    const guard = await guardOf(true);
    for (let i = 0; i < 5; i++) {
      const free = await call(guard, Routes.prototype.free, Routes);
      expect(free).toEqual({ passed: true, status: undefined, headers: {} });
      expect((await call(guard, FreeRoutes.prototype.any, FreeRoutes)).passed).toBe(true);
    }
    expect((await call(guard, Routes.prototype.plain, Routes)).headers['X-RateLimit-Remaining']).toBe(2);
  });

  test("a route's own @Throttle settings apply to it, on the same token's counter", async () => {
    const guard = await guardOf(true);
    expect((await call(guard, Routes.prototype.ownLimit, Routes)).passed).toBe(true);
    const over = await call(guard, Routes.prototype.ownLimit, Routes);
    expect(over.status).toBe(429);
  });

  test('a module limit given as a function is read for each request', async () => {
    let limit = 1;
    const guard = await guardOf(true, { throttlers: [{ name: 'default', ttl: 60_000, limit: () => limit }] });
    expect((await call(guard, Routes.prototype.plain, Routes)).passed).toBe(true);
    expect((await call(guard, Routes.prototype.plain, Routes)).status).toBe(429);
    limit = 10;
    expect((await call(guard, Routes.prototype.plain, Routes, 'sk_service_two')).passed).toBe(true);
    expect((await call(guard, Routes.prototype.plain, Routes, 'sk_service_two')).passed).toBe(true);
  });

  test('self-hosted, nothing is counted', async () => {
    const guard = await guardOf(false);
    for (let i = 0; i < 10; i++) expect(await call(guard, Routes.prototype.plain, Routes)).toEqual({ passed: true, status: undefined, headers: {} });
  });
});
