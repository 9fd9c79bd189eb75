import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { from, Observable, switchMap } from 'rxjs';
import { runWithTenant, TenantContext } from '../../../libs/tenancy';
import { IS_PUBLIC } from '../../common/auth/public.decorator';
import { TenantResolver } from './tenant-resolver.service';

export type TenantRequest = Request & { tenant?: TenantContext };

/**
 * Resolves the tenant of every non-public HTTP request and runs the handler
 * inside that tenant's AsyncLocalStorage context; everything the handler calls
 * (services, TenantDb, MCP tools) sees that tenant and no other.
 */
@Injectable()
export class TenantInterceptor implements NestInterceptor {
  constructor(
    private readonly resolver: TenantResolver,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return next.handle();
    const request = context.switchToHttp().getRequest<TenantRequest>();
    return from(this.resolver.resolve(request.headers.authorization)).pipe(
      switchMap(
        (tenant) =>
          new Observable((subscriber) => {
            request.tenant = tenant;
            const subscription = runWithTenant(tenant, () => next.handle().subscribe(subscriber));
            return () => subscription.unsubscribe();
          }),
      ),
    );
  }
}
