import { Module } from '@nestjs/common';
import { ContextModule } from '../context/context.module';
import { SessionsModule } from '../sessions/sessions.module';
import { HookDiagnosticsService } from './hook-diagnostics.service';
import { HooksController } from './hooks.controller';
import { HooksService } from './hooks.service';
import { HooksTools } from './hooks.tools';

/** The assistant hooks: SessionStart, Stop (checkpoint) and their diagnostics. */
@Module({
  imports: [ContextModule, SessionsModule],
  controllers: [HooksController],
  providers: [HooksService, HookDiagnosticsService, HooksTools],
})
export class HooksModule {}
