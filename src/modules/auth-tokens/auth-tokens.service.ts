import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../../common/auth/principal';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ApiTokens, ApiTokenView } from '../tenants/api-tokens.service';
import { AuthTokenError } from './auth-tokens.errors';
import { CreateApiTokenDto } from './dto/create-api-token.dto';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Who may do what with a workspace's API tokens (hosted):
 * - anyone of the workspace (any member signed in, any token) lists them;
 * - an owner or admin signed in, or a full-scope token, creates tokens of
 *   either scope, revokes any, and purges orphaned OAuth tokens;
 * - a member signed in creates read-scope tokens and revokes those they made.
 * A read-scope token only lists (the tenant guard refuses its other methods).
 */
@Injectable()
export class AuthTokensService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: ApiTokens,
  ) {}

  list(actor: Principal): Promise<ApiTokenView[]> {
    this.hostedOnly();
    return this.tokens.list(actor.tenantId);
  }

  async create(actor: Principal, input: CreateApiTokenDto): Promise<ApiTokenView & { token: string }> {
    this.hostedOnly();
    const scope = input.scope ?? 'full';
    if (scope === 'full' && !managesTokens(actor)) {
      throw AuthTokenError.notAllowed('members may create read-scope tokens only ({"scope": "read"}); a full-scope token needs an owner or admin of the workspace');
    }
    const expiresAt = input.expires_in_days ? new Date(Date.now() + input.expires_in_days * DAY_MS) : null;
    const { token, view } = await this.tokens.issue(actor.tenantId, input.label, { scope, expiresAt, createdBy: actor.accountId ?? null });
    this.tokens.changed(actor.tenantId);
    return { ...view, token };
  }

  async revoke(actor: Principal, tokenId: string): Promise<void> {
    this.hostedOnly();
    const token = await this.tokens.creatorOf(actor.tenantId, tokenId);
    if (!token) throw AuthTokenError.notFound(tokenId);
    if (!managesTokens(actor) && (!actor.accountId || token.createdBy !== actor.accountId)) {
      throw AuthTokenError.notAllowed('members may revoke only the tokens they created; ask an owner or admin of the workspace');
    }
    await this.tokens.revokeById(actor.tenantId, tokenId);
  }

  async purgeOrphaned(actor: Principal): Promise<{ deleted: number }> {
    this.hostedOnly();
    if (!managesTokens(actor)) throw AuthTokenError.notAllowed('purging orphaned OAuth tokens needs an owner or admin of the workspace, or a full-scope token');
    return { deleted: await this.tokens.purgeOrphaned(actor.tenantId) };
  }

  private hostedOnly() {
    if (!this.config.isHosted) throw AuthTokenError.notHosted();
  }
}

/** An owner or admin signed in, or a full-scope token. */
function managesTokens(actor: Principal): boolean {
  if (actor.kind === 'session') return actor.role === 'owner' || actor.role === 'admin';
  return !actor.readOnly;
}
