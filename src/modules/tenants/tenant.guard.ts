import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { enterRequestTenant, TenantContext } from '../../../libs/tenancy';
import { IS_PUBLIC } from '../../common/auth/public.decorator';
import { TenantResolver } from './tenant-resolver.service';

export type TenantRequest = Request & { tenant?: TenantContext };

/**
 * Resolves the tenant of every non-public HTTP request (401 when the bearer
 * token is missing, invalid or revoked; 429 when the client's address has
 * presented too many refused tokens lately) and makes it the current tenant of the
 * request's AsyncLocalStorage scope, which `runInRequestScope` opened before
 * routing: everything the handler calls (services, TenantDb, MCP tools) sees
 * that tenant and no other. Global guards run before a controller's own, so
 * those can rely on the tenant.
 */
@Injectable()
export class TenantGuard implements CanActivate {
  constructor(
    private readonly resolver: TenantResolver,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<TenantRequest>();
    const tenant = await this.resolver.resolve(request.headers.authorization, request.ip);
    request.tenant = tenant;
    enterRequestTenant(tenant);
    return true;
  }
}
