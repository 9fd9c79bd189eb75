import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { HookDiagnosticsQueryDto } from './dto/hook-diagnostics-query.dto';
import { HookQueryDto } from './dto/hook-query.dto';
import { HookDiagnosticsService } from './hook-diagnostics.service';
import { HooksService, SessionStartHookOutput, StopHookOutput } from './hooks.service';

/** Called by an assistant's command hooks (see docs/hooks.md); the body is the assistant's own hook input. */
@Controller('hooks')
export class HooksController {
  constructor(
    private readonly hooks: HooksService,
    private readonly diagnostics: HookDiagnosticsService,
  ) {}

  @Post('session-start')
  @HttpCode(200)
  sessionStart(@Query() query: HookQueryDto, @Body() body: unknown): Promise<SessionStartHookOutput> {
    return this.hooks.sessionStart(query, body);
  }

  @Post('stop')
  @HttpCode(200)
  stop(@Query() query: HookQueryDto, @Body() body: unknown): Promise<StopHookOutput> {
    return this.hooks.stop(query, body);
  }

  @Get('diagnostics')
  diagnosticsOf(@Query() query: HookDiagnosticsQueryDto) {
    return this.diagnostics.diagnostics(query.project_id);
  }
}
