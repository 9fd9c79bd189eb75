import { Module } from '@nestjs/common';
import { FileLocksService } from './file-locks.service';
import { SessionCloseHooks } from './session-close-hooks';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';
import { SessionsSweeper } from './sessions.sweeper';
import { SessionsTools } from './sessions.tools';

@Module({
  controllers: [SessionsController],
  providers: [SessionsService, FileLocksService, SessionCloseHooks, SessionsSweeper, SessionsTools],
  exports: [SessionsService, FileLocksService, SessionCloseHooks],
})
export class SessionsModule {}
