import { Module } from '@nestjs/common';
import { FileLocksService } from './file-locks.service';
import { SessionCloseHooks } from './session-close-hooks';
import { SessionHandovers } from './session-handovers';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';
import { SessionsSweeper } from './sessions.sweeper';
import { SessionsTools } from './sessions.tools';

@Module({
  controllers: [SessionsController],
  providers: [SessionsService, FileLocksService, SessionCloseHooks, SessionHandovers, SessionsSweeper, SessionsTools],
  exports: [SessionsService, FileLocksService, SessionCloseHooks, SessionHandovers],
})
export class SessionsModule {}
