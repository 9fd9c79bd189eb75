import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { markRequestAdmin } from '../../../libs/tenancy';
import { AdminIdentity } from '../../common/auth/admin-identity.service';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/**
 * Hosted, marks a profile-layer request that comes from the instance's admin identity (a signed-in
 * person with a listed admin address, or a browser holding the admin password's cookie) so that
 * it may author hosted_default layers and is named as their author. It lets every request
 * through: what a request may do is decided by the service, as for the operator's tenant.
 */
@Injectable()
export class AdminAuthorGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly identity: AdminIdentity,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.config.isHosted || context.getType() !== 'http') return true;
    const standing = await this.identity.standing(context.switchToHttp().getRequest<Request>());
    if (standing.kind === 'admin') markRequestAdmin(standing.via === 'password' || !standing.email ? 'admin password' : standing.email);
    return true;
  }
}
