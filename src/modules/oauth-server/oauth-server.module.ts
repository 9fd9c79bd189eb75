import { Module } from '@nestjs/common';
import { ConnectorSignInController } from './connector-sign-in.controller';
import { ConnectorSignIn } from './connector-sign-in.service';
import { DeviceActivation } from './device-activation.service';
import { OAuthConsent } from './oauth-consent.service';
import { OAuthGrants } from './oauth-grants.service';
import { OAuthPagesController } from './oauth-pages.controller';
import { OAuthRoutes } from './oauth-routes.middleware';
import { OAuthServer } from './oauth-server.service';
import { ProtectedResourceController } from './protected-resource.controller';

/**
 * Baton as an OAuth 2.1 authorization server for MCP clients, with the device flow and the
 * device sign-in of Baton's own connectors (hosted only). `OAuthRoutes` is mounted by the app factory, before the body parsers.
 */
@Module({
  controllers: [ProtectedResourceController, OAuthPagesController, ConnectorSignInController],
  providers: [OAuthServer, OAuthRoutes, OAuthGrants, OAuthConsent, DeviceActivation, ConnectorSignIn],
  exports: [OAuthServer, OAuthRoutes],
})
export class OAuthServerModule {}
