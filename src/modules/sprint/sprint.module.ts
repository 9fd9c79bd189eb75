import { Module } from '@nestjs/common';
import { ProfileLayersModule } from '../profile-layers/profile-layers.module';
import { CodehostModule } from '../codehost/codehost.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SprintBatchService } from './sprint-batch.service';
import { SprintClaimsService } from './sprint-claims.service';
import { SprintDb } from './sprint-db.service';
import { SprintDependencies } from './sprint-dependencies.service';
import { SprintEvents } from './sprint-events.service';
import { SprintIdentifiers } from './sprint-identifiers.service';
import { SprintIntegrations } from './sprint-integrations';
import { SprintItemsController } from './sprint-items.controller';
import { SprintItemsService } from './sprint-items.service';
import { SprintItemsTools } from './sprint-items.tools';
import { SprintPlanning } from './sprint-planning.service';
import { SprintPlanningTools } from './sprint-planning.tools';
import { SprintQueries } from './sprint-queries.service';
import { SprintReconcile } from './sprint-reconcile.service';
import { SprintTransitions } from './sprint-transitions.service';
import { SprintVerifications } from './sprint-verifications.service';
import { SprintWaves } from './sprint-waves.service';
import { SprintController } from './sprint.controller';

@Module({
  imports: [SessionsModule, ProfileLayersModule, CodehostModule],
  controllers: [SprintItemsController, SprintController],
  providers: [
    SprintDb,
    SprintEvents,
    SprintIdentifiers,
    SprintDependencies,
    SprintItemsService,
    SprintClaimsService,
    SprintTransitions,
    SprintVerifications,
    SprintWaves,
    SprintBatchService,
    SprintQueries,
    SprintPlanning,
    SprintReconcile,
    SprintIntegrations,
    SprintItemsTools,
    SprintPlanningTools,
  ],
  exports: [SprintItemsService, SprintDb],
})
export class SprintModule {}
