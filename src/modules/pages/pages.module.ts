import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { TenantsModule } from '../tenants/tenants.module';
import { McpModule } from '../../mcp/mcp.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { InstanceStats } from './instance-stats.service';
import { PagesController } from './pages.controller';
import { PagesService } from './pages.service';
import { SetupService } from './setup.service';
import { SiteContent } from './site-content';
import { PublishedContent } from './published-content';
import { SiteModule } from '../site/site.module';
import { StatusController } from './status.controller';
import { DemoAccess } from './demo-access.service';
import { DemoController } from './demo.controller';
import { DemoStore } from './demo-store.service';
import { WindowLimiter } from '../../common/rate-limit/window-limiter';

/** Public pages (/, /pricing, /demo, /onboarding, /setup, ...), the status badges and the setup checks. */
@Module({
  imports: [HealthModule, TenantsModule, McpModule, RealtimeModule, SiteModule],
  controllers: [PagesController, StatusController, DemoController],
  providers: [PagesService, SiteContent, PublishedContent, SetupService, InstanceStats, DemoStore, DemoAccess, WindowLimiter],
})
export class PagesModule {}
