import { Module } from '@nestjs/common';
import { FileLocksService } from './file-locks.service';
import { SessionCloseHooks } from './session-close-hooks';
import { SessionHandovers } from './session-handovers';
import { SessionNotices } from './session-notices.service';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';
import { SessionsSweeper } from './sessions.sweeper';
import { SessionsTools } from './sessions.tools';

@Module({
  controllers: [SessionsController],
  providers: [SessionsService, FileLocksService, SessionCloseHooks, SessionHandovers, SessionNotices, SessionsSweeper, SessionsTools],
  exports: [SessionsService, FileLocksService, SessionCloseHooks, SessionHandovers, SessionNotices],
})
export class SessionsModule {}
