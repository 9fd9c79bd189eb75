import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { READ_ONLY } from '../../mcp/tool-annotations';
import { HookDiagnosticsQueryDto } from './dto/hook-diagnostics-query.dto';
import { HookDiagnosticsService } from './hook-diagnostics.service';

@Injectable()
export class HooksTools {
  constructor(private readonly diagnostics: HookDiagnosticsService) {}

  @McpTool({
    name: 'get_hook_diagnostics',
    annotations: READ_ONLY,
    description: "Whether the assistant's SessionStart and Stop hooks reach Baton, and what they last did (optionally for one project).",
    input: HookDiagnosticsQueryDto,
  })
  get(input: HookDiagnosticsQueryDto) {
    return this.diagnostics.diagnostics(input.project_id);
  }
}
