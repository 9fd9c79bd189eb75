import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { enterRequestTenant } from '../../../libs/tenancy';
import { PrincipalRequest } from '../../common/auth/principal';
import { presentedProjectToken, PROJECT_TOKEN_ROUTE, ProjectTokenKind, triesProjectToken } from '../../common/auth/project-token.decorator';
import { RequestError } from '../../common/errors/request-error';
import { TenantDirectory } from '../tenants/tenant-directory.service';
import { ProjectTokensService, tenantOfToken } from './project-tokens.service';

/** What a request that came in by a project token carries: the moment a pinned rewind token shows. */
export type ProjectTokenRequest = PrincipalRequest & { rewindPinnedAt?: Date | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const WEBHOOK_ONLY = "POST .../events takes only the project's webhook token (GET .../webhook-token), as Authorization: Bearer bwh_... or X-Webhook-Token: bwh_...";

/**
 * The second half of a `@ProjectTokenRoute` (the tenant guard lets a request presenting a
 * project token through untouched): takes the request to the token's workspace and lets it in
 * only when the token is a live one of the route's kind for the project of the path. Anything
 * else answers 401, whatever the reason, so a token cannot be used to probe projects.
 */
@Injectable()
export class ProjectTokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tenants: TenantDirectory,
    private readonly tokens: ProjectTokensService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ProjectTokenRequest>();
    if (request.tenant) return true;
    const kind = this.reflector.get<ProjectTokenKind>(PROJECT_TOKEN_ROUTE, context.getHandler());
    const projectId = String(request.params.project_id ?? '').toLowerCase();
    // A malformed id is bad input whoever asks, answered as the route's own validation would.
    if (!UUID.test(projectId)) throw RequestError.invalidInput('project_id must be a UUID');
    const token = presentedProjectToken(request, kind);
    if (!token && !triesProjectToken(request, kind) && kind === 'webhook') throw RequestError.unauthorized(WEBHOOK_ONLY);
    const refused = RequestError.unauthorized(`invalid or expired ${kind} token for this project`);
    const tenantId = token ? tenantOfToken(token, kind) : undefined;
    const tenant = tenantId ? await this.tenants.contextOf(tenantId) : undefined;
    if (!token || !tenant) throw refused;
    enterRequestTenant(tenant, { readOnly: kind === 'rewind' });
    const live = await this.tokens.verify(projectId, kind, token);
    if (!live) throw refused;
    request.tenant = tenant;
    request.rewindPinnedAt = live.pinnedAt;
    request.principal = { kind: 'token', tenantId: tenant.tenantId, readOnly: kind === 'rewind' };
    return true;
  }
}
