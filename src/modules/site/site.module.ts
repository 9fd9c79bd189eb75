import { Module } from '@nestjs/common';
import { WindowLimiter } from '../../common/rate-limit/window-limiter';
import { AdminAudit } from './admin-audit.service';
import { AdminContentController } from './admin-content.controller';
import { Feedback } from './feedback.service';
import { Publications } from './publications.service';
import { SiteController } from './site.controller';
import { SiteDb } from './site-db';
import { Waitlist } from './waitlist.service';

/** The instance's own content (migrations/site): waitlist, feedback, blog, changelog, and the admin audit trail. */
@Module({
  controllers: [SiteController, AdminContentController],
  providers: [SiteDb, Waitlist, Feedback, Publications, AdminAudit, WindowLimiter],
  exports: [SiteDb, Waitlist, Feedback, Publications, AdminAudit],
})
export class SiteModule {}
