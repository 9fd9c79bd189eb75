import { Module } from '@nestjs/common';
import { HitlModule } from '../hitl/hitl.module';
import { SessionsModule } from '../sessions/sessions.module';
import { TenantsModule } from '../tenants/tenants.module';
import { ExecutorController } from './executor.controller';
import { ExecutorWritesController } from './executor-writes.controller';
import { ExecutorTools } from './executor.tools';
import { ExperimentsService } from './experiments.service';
import { MachinesService } from './machines.service';
import { OrphanMarks } from './orphan-marks';
import { OrphanReaperService } from './orphan-reaper.service';
import { OrphanReaperSweeper } from './orphan-reaper.sweeper';
import { RunsService } from './runs.service';
import { WorktreesController } from './worktrees.controller';
import { WorktreesService } from './worktrees.service';
import { WorktreeMergesService } from './worktree-merges.service';

/** Executors: registered machines, runs, queued tasks they take, experiments, worktrees and the orphan reaper. */
@Module({
  imports: [TenantsModule, HitlModule, SessionsModule],
  controllers: [ExecutorController, ExecutorWritesController, WorktreesController],
  providers: [MachinesService, RunsService, ExperimentsService, WorktreesService, OrphanMarks, OrphanReaperService, OrphanReaperSweeper, ExecutorTools, WorktreeMergesService],
})
export class ExecutorModule {}
