import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { AutoSummaryService } from './auto-summary.service';
import { AutoSummarySweeper } from './auto-summary.sweeper';
import { FrameworkEventsService } from './framework-events.service';
import { LiveTasksService } from './live-tasks.service';
import { ProjectStatsService } from './project-stats.service';
import { ProjectTokenGuard } from './project-token.guard';
import { ProjectTokensService } from './project-tokens.service';
import { RewindLinksService } from './rewind-links.service';
import { RewindService } from './rewind.service';
import { TimeController } from './time.controller';
import { TimeTools } from './time.tools';

/** Baton's view of a project over time: stats, runtime diagnostics, rewind, the live task log, inbound framework events and the auto-summary. */
@Module({
  imports: [TenantsModule],
  controllers: [TimeController],
  providers: [
    ProjectStatsService,
    RewindService,
    RewindLinksService,
    ProjectTokensService,
    ProjectTokenGuard,
    FrameworkEventsService,
    LiveTasksService,
    AutoSummaryService,
    AutoSummarySweeper,
    TimeTools,
  ],
  exports: [AutoSummarySweeper],
})
export class TimeModule {}
