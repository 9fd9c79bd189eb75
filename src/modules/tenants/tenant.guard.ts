import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { enterRequestTenant, TenantContext } from '../../../libs/tenancy';
import { Principal, PrincipalRequest } from '../../common/auth/principal';
import { presentedProjectToken, PROJECT_TOKEN_ROUTE, ProjectTokenKind } from '../../common/auth/project-token.decorator';
import { IS_PUBLIC } from '../../common/auth/public.decorator';
import { CHECKS_READ_SCOPE } from '../../common/auth/read-scope.decorator';
import { RequestError } from '../../common/errors/request-error';
import { isSafeMethod, isSameOrigin } from '../../common/http/same-origin';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { WebSessions } from '../accounts/web-sessions.service';
import { TenantResolver } from './tenant-resolver.service';
import { TenantError } from './tenants.errors';

export type TenantRequest = PrincipalRequest;

/** A route's access rules, from its decorators and its controller's. */
interface RouteAccess {
  isPublic: boolean;
  tokenKind: ProjectTokenKind | undefined;
  checksReadScope: boolean;
}

/**
 * Resolves the tenant of every non-public HTTP request and makes it the
 * current tenant of the request's AsyncLocalStorage scope, which
 * `runInRequestScope` opened before routing: everything the handler calls
 * (services, TenantDb, MCP tools) sees that tenant and no other. Global guards
 * run before a controller's own, so those can rely on the tenant.
 *
 * Hosted, a request proves itself with a bearer token (401 when it is missing,
 * invalid, expired or revoked; 429 when the client's address has presented too
 * many refused tokens lately) or, without one, with a signed-in person's
 * web-session cookie, acting in their current workspace. A state-changing
 * request that rests on the cookie must come from Baton's own pages (its
 * Origin), so another site cannot make a signed-in browser act. A read-scope
 * token gets 403 `READ_ONLY_TOKEN` on any method but GET, HEAD and OPTIONS,
 * except on routes that check it themselves (`@ChecksReadScope()`: MCP, tool
 * by tool).
 */
@Injectable()
export class TenantGuard implements CanActivate {
  constructor(
    private readonly resolver: TenantResolver,
    private readonly reflector: Reflector,
    private readonly sessions: WebSessions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** By controller class, then handler: a handler inherited by several controllers may be public in one only. */
  private readonly routes = new WeakMap<object, WeakMap<object, RouteAccess>>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const route = this.routeOf(context);
    if (route.isPublic) return true;
    const request = context.switchToHttp().getRequest<PrincipalRequest>();
    // A project token (webhook, shared rewind) is checked by the route's own guard, against its project.
    // A webhook route takes nothing but its token, so it never falls back to the workspace's credentials.
    const tokenKind = route.tokenKind;
    if (tokenKind === 'webhook' || (tokenKind && presentedProjectToken(request, tokenKind))) return true;
    const tenant = (await this.bySession(request)) ?? (await this.byToken(request));
    const readOnly = request.principal?.readOnly === true;
    if (readOnly && !isSafeMethod(request.method) && !route.checksReadScope) {
      throw TenantError.readOnlyToken(`${request.method} ${request.path}`);
    }
    request.tenant = tenant;
    enterRequestTenant(tenant, { readOnly, actorAccountId: request.principal?.accountId });
    return true;
  }

  /** What the route's decorators say (they do not change once the application runs): read once per route, on its first request. */
  private routeOf(context: ExecutionContext): RouteAccess {
    const handler = context.getHandler();
    const type = context.getClass();
    let byHandler = this.routes.get(type);
    if (!byHandler) this.routes.set(type, (byHandler = new WeakMap()));
    let route = byHandler.get(handler);
    if (!route) {
      const targets = [handler, type];
      route = {
        isPublic: this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) === true,
        tokenKind: this.reflector.get<ProjectTokenKind | undefined>(PROJECT_TOKEN_ROUTE, handler),
        checksReadScope: this.reflector.getAllAndOverride<boolean | undefined>(CHECKS_READ_SCOPE, targets) === true,
      };
      byHandler.set(handler, route);
    }
    return route;
  }

  /** The tenant of the bearer token (self-hosted: the local tenant), with what the token may do. */
  private async byToken(request: PrincipalRequest): Promise<TenantContext> {
    const { tenant, token } = await this.resolver.authenticate(request.headers.authorization, () => request.ip);
    const principal: Principal = { kind: token ? 'token' : 'local', tenantId: tenant.tenantId };
    if (token?.createdBy) principal.accountId = token.createdBy;
    if (token?.scope === 'read') principal.readOnly = true;
    request.principal = principal;
    return tenant;
  }

  /** The current workspace of the signed-in person, when the request carries a session cookie and no bearer token. */
  private async bySession(request: PrincipalRequest): Promise<TenantContext | undefined> {
    if (!this.config.isHosted || request.headers.authorization) return undefined;
    const person = await this.sessions.current(request);
    if (!person) return undefined;
    if (!isSafeMethod(request.method) && !isSameOrigin(request, this.config.baseUrl)) {
      throw RequestError.forbidden("a change made with the sign-in cookie must come from Baton's own pages (the request's Origin is another site, or missing)");
    }
    if (!person.tenant || !person.role) {
      throw RequestError.forbidden('you are signed in but belong to no workspace now: choose one of GET /me/workspaces with POST /me/workspace');
    }
    request.principal = { kind: 'session', tenantId: person.tenant.tenantId, accountId: person.accountId, role: person.role, sessionId: person.sessionId };
    return person.tenant;
  }
}
