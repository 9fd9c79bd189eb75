import { CallHandler, ExecutionContext, INestApplication, NestInterceptor, RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import type { Request } from 'express';
import type { Observable } from 'rxjs';

/** Route methods a POST, PUT or PATCH request can reach. */
const WRITE_ROUTES: ReadonlySet<RequestMethod> = new Set([RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.ALL]);

/** Each application's interceptor, by the express application its requests carry (`req.app`). */
const bound = new WeakMap<object, NestInterceptor>();

/**
 * What the write routes carry: the same object in every application of the process (controller
 * classes, and so their metadata, are shared by the applications a test or a benchmark starts side
 * by side); it hands each request to its own application's interceptor.
 */
const WRITE_ROUTE_INTERCEPTOR: NestInterceptor = {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> | Promise<Observable<unknown>> {
    const own = context.getType() === 'http' ? bound.get(context.switchToHttp().getRequest<Request>().app) : undefined;
    return own ? own.intercept(context, next) : next.handle();
  },
};

/**
 * Puts `interceptor` in front of every controller route a POST, PUT or PATCH request can reach
 * (routes declared with `@Post`, `@Put`, `@Patch` or `@All`), before the route's own interceptors,
 * where a global interceptor would run; the other routes go without it. Nest runs a route's
 * interceptors as a chain of Observables, which costs every request of the route even when the
 * interceptor only passes it on: a check that only concerns writes is thus decided once per route,
 * at boot, instead of on every read. Call it after the application is created and before it
 * listens (Nest reads a route's interceptors when it registers its routes, in `init`).
 *
 * Reads and writes Nest's route metadata (`METHOD_METADATA`, `INTERCEPTORS_METADATA` of
 * `@nestjs/common`): pinned, checked by test/library-contracts.spec.ts, see docs/decisions.md
 * "Library internals". With `skip`, a route whose every path matches it is left alone (the
 * interceptor would pass all its requests on). Returns the number of write routes it was put on.
 */
export function interceptWriteRoutes(app: INestApplication, interceptor: NestInterceptor, skip?: RegExp): number {
  bound.set(app.getHttpAdapter().getInstance() as object, interceptor);
  const scanner = new MetadataScanner();
  let routes = 0;
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const type = wrapper.metatype as (new (...args: never[]) => object) | undefined;
      if (typeof type !== 'function') continue;
      const prototype = type.prototype as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        if (typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined || !WRITE_ROUTES.has(method)) continue;
        // A route the interceptor would always pass on (every path it answers matches `skip`) goes without it.
        if (skip && routePaths(type, handler).every((path) => skip.test(path))) continue;
        routes++;
        const own = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];
        // Marked once per process: by an application started before, or through a handler several controllers inherit.
        if (!own.includes(WRITE_ROUTE_INTERCEPTOR)) Reflect.defineMetadata(INTERCEPTORS_METADATA, [WRITE_ROUTE_INTERCEPTOR, ...own], handler);
      }
    }
  }
  return routes;
}

/** The paths a controller route answers (`/<controller path>/<method path>`, each possibly several), as Nest joins them. */
function routePaths(controller: object, handler: object): string[] {
  const list = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : [typeof value === 'string' ? value : '']);
  const paths: string[] = [];
  for (const base of list(Reflect.getMetadata(PATH_METADATA, controller))) {
    for (const own of list(Reflect.getMetadata(PATH_METADATA, handler)))
      paths.push(
        `/${[base, own]
          .map((p) => p.replace(/^\/+|\/+$/g, ''))
          .filter(Boolean)
          .join('/')}`,
      );
  }
  return paths;
}
