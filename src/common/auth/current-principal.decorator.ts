import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { Principal, PrincipalRequest } from './principal';

/** The request's principal, as the tenant guard resolved it (not for @Public() routes, which have none). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<PrincipalRequest>().principal;
  if (!principal) throw new Error('No principal: the route is public, or the tenant guard did not run');
  return principal;
});
