import { Module } from '@nestjs/common';
import { StorageCapInterceptor } from './storage-cap.interceptor';
import { NotificationsModule } from '../notifications/notifications.module';
import { BillingController } from './billing.controller';
import { BillingLedger } from './billing-ledger.service';
import { BillingMails } from './billing-mails.service';
import { BillingProvider } from './billing-provider';
import { BillingService } from './billing.service';
import { BillingWebhooks } from './billing-webhooks.service';
import { BillingWebhooksController } from './billing-webhooks.controller';
import { UsageSettingsController } from './usage-settings.controller';
import { UsageSettingsService } from './usage-settings.service';
import { UsageMeter } from './usage-meter.service';
import { McpModule } from '../../mcp/mcp.module';

/** Billing (hosted): checkout, the customer portal, the payment provider's and marketplace's webhooks; and the usage settings (both modes). */
@Module({
  imports: [NotificationsModule, McpModule],
  controllers: [BillingController, BillingWebhooksController, UsageSettingsController],
  providers: [
    BillingProvider,
    BillingService,
    BillingLedger,
    BillingMails,
    BillingWebhooks,
    UsageSettingsService,
    UsageMeter,
    // Put on the routes that can add data by createApp (interceptWriteRoutes), not on every route.
    StorageCapInterceptor,
  ],
})
export class BillingModule {}
