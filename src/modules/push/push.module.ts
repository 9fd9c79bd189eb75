import { Global, Module } from '@nestjs/common';
import { BoardReadCache } from './board-read-cache.service';
import { BudgetAlerts } from './budget-alerts.service';
import { PushDiagnosticsController } from './push-diagnostics.controller';
import { PushDiagnosticsService } from './push-diagnostics.service';
import { PushDiagnosticsTools } from './push-diagnostics.tools';
import { PushService } from './push.service';
import { TenantPlans } from './tenant-plans.service';

/** Push wake-ups through Redis with the polling fallback, budgets, and their diagnostics. */
@Global()
@Module({
  controllers: [PushDiagnosticsController],
  providers: [PushService, TenantPlans, BudgetAlerts, PushDiagnosticsService, PushDiagnosticsTools, BoardReadCache],
  exports: [PushService, TenantPlans, BoardReadCache],
})
export class PushModule {}
