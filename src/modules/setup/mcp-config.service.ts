import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { PublicUrl } from '../../common/public-url';

/** Where a token goes in a snippet: Baton never puts a real token in one (it keeps only their hashes). */
export const TOKEN_PLACEHOLDER = '<your sk_service_ API token>';

export interface McpConfig {
  url: string;
  sse_url: string;
  transport: 'streamable-http';
  /** Hosted: a bearer token (or the MCP client's OAuth sign-in); self-hosted: nothing. */
  auth: 'bearer' | 'none';
  /** The `mcpServers` entry most MCP clients read (Claude Code, Cursor, ...), ready to paste. */
  client_config: { mcpServers: { baton: { type: 'http'; url: string; headers?: Record<string, string> } } };
  /** The same, as a Claude Code command line. */
  claude_code_command: string;
}

/** GET /settings/mcp-config and GET /config/api-key: how a client connects to this server. */
@Injectable()
export class McpConfigService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly publicUrl: PublicUrl,
  ) {}

  mcpConfig(): McpConfig {
    const url = this.publicUrl.to('/mcp');
    const headers = this.config.isHosted ? { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } : undefined;
    return {
      url,
      sse_url: this.publicUrl.to('/mcp/sse'),
      transport: 'streamable-http',
      auth: this.config.isHosted ? 'bearer' : 'none',
      client_config: { mcpServers: { baton: { type: 'http', url, ...(headers ? { headers } : {}) } } },
      claude_code_command: `claude mcp add --transport http baton ${url}${headers ? ` --header "Authorization: Bearer ${TOKEN_PLACEHOLDER}"` : ''}`,
    };
  }

  apiKey(): { required: boolean; prefix: string | null; detail: string; create: { method: 'POST'; url: string } | null } {
    if (!this.config.isHosted) return { required: false, prefix: null, detail: 'a self-hosted Baton needs no API key: connect to it directly', create: null };
    return {
      required: true,
      prefix: 'sk_service_',
      detail: 'sign in, then create a token (POST /auth/tokens, or in the dashboard); it is shown once, keep it in your MCP client',
      create: { method: 'POST', url: this.publicUrl.to('/auth/tokens') },
    };
  }
}
