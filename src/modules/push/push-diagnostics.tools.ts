import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { READ_ONLY } from '../../mcp/tool-annotations';
import { TenantIdDto } from './dto/tenant-id.dto';
import { PushDiagnosticsService } from './push-diagnostics.service';

@Injectable()
export class PushDiagnosticsTools {
  constructor(private readonly diagnostics: PushDiagnosticsService) {}

  @McpTool({
    name: 'get_tunnel_diagnostics',
    annotations: READ_ONLY,
    description:
      'Read-only diagnostics of your own workspace (tenant_id): the pubsub section — push availability, publish counts and latencies, budget tier — from in-process counters.',
    input: TenantIdDto,
  })
  get(input: TenantIdDto) {
    return this.diagnostics.diagnostics(input.tenant_id);
  }
}
