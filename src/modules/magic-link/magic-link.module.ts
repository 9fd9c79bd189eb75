import { Module } from '@nestjs/common';
import { WindowLimiter } from '../../common/rate-limit/window-limiter';
import { MagicLinkController } from './magic-link.controller';
import { MagicLinks } from './magic-links.service';

/** Sign-in by e-mail link (hosted): POST /auth/magic, GET /auth/magic/verify. */
@Module({
  controllers: [MagicLinkController],
  providers: [MagicLinks, WindowLimiter],
})
export class MagicLinkModule {}
