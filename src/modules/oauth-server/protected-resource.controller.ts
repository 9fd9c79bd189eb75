import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '../../common/auth/public.decorator';
import { MCP_SCOPE } from './oauth-server.constants';
import { OAuthServer } from './oauth-server.service';

/** RFC 9728 protected resource metadata of Baton's MCP endpoint. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: string[];
  resource_name: string;
  resource_documentation: string;
}

/**
 * Where an MCP client learns who issues tokens for /mcp (RFC 9728), at the root well-known
 * address and at its path-suffixed form for the /mcp resource, which MCP clients try first.
 * Self-hosted, both are 404: there is nothing to authorize.
 */
@Controller('.well-known')
@Public()
export class ProtectedResourceController {
  constructor(private readonly server: OAuthServer) {}

  @Get(['oauth-protected-resource', 'oauth-protected-resource/mcp'])
  @Header('Cache-Control', 'public, max-age=3600')
  @Header('Access-Control-Allow-Origin', '*')
  metadata(): ProtectedResourceMetadata {
    this.server.requireHosted();
    return {
      resource: this.server.mcpResource,
      authorization_servers: [this.server.issuer],
      scopes_supported: [MCP_SCOPE],
      bearer_methods_supported: ['header'],
      resource_name: 'Baton',
      resource_documentation: `${this.server.issuer}/mcp/quickstart`,
    };
  }
}
