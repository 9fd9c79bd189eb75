import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { TaskClaimsService } from './task-claims.service';
import { TaskSearchService } from './task-search.service';
import { TasksContextSection } from './tasks-context.section';
import { TasksController } from './tasks.controller';
import { TasksService } from './tasks.service';
import { TasksTools } from './tasks.tools';

@Module({
  imports: [SessionsModule],
  controllers: [TasksController],
  providers: [TasksService, TaskClaimsService, TaskSearchService, TasksContextSection, TasksTools],
  exports: [TasksService],
})
export class TasksModule {}
