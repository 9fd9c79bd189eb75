import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RequestError } from '../errors/request-error';
import { isSafeMethod, isSameOrigin } from '../http/same-origin';
import { AdminIdentity } from './admin-identity.service';

/**
 * Lets admins through: 401 for a request that signs no one in, 403 for a
 * signed-in person who is not an admin. An admin's identity rests on cookies,
 * so a change must come from Baton's own pages (its Origin), as with the
 * web session.
 */
@Injectable()
export class AdminOnlyGuard implements CanActivate {
  constructor(
    private readonly identity: AdminIdentity,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const standing = await this.identity.standing(request);
    if (standing.kind === 'signed-in') throw RequestError.forbidden('this route is for Baton admins; your address is not one (SERVICE_ADMIN_EMAILS)');
    if (standing.kind === 'anonymous') {
      throw RequestError.unauthorized('this route is for Baton admins: sign in with an admin address, or at /admin/login with the admin password');
    }
    if (!isSafeMethod(request.method) && !isSameOrigin(request, this.config.baseUrl)) {
      throw RequestError.forbidden("an admin change must come from Baton's own pages (the request's Origin is another site, or missing)");
    }
    return true;
  }
}
