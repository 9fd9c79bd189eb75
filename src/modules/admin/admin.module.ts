import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { SiteModule } from '../site/site.module';
import { AdminConsoleController } from './admin-console.controller';
import { AdminHealthService } from './admin-health.service';
import { AdminLoginDoor } from './admin-login.door';
import { AdminOps } from './admin-ops.service';
import { AdminStatsService } from './admin-stats.service';
import { AdminController } from './admin.controller';

/** Routes for the operator of the instance, behind @AdminOnly(). */
@Module({
  imports: [HealthModule, SiteModule],
  controllers: [AdminController, AdminConsoleController],
  providers: [AdminLoginDoor, AdminHealthService, AdminStatsService, AdminOps],
})
export class AdminModule {}
