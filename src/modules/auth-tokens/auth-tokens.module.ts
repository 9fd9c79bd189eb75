import { Module } from '@nestjs/common';
import { AuthTokensController } from './auth-tokens.controller';
import { AuthTokensService } from './auth-tokens.service';

/** A workspace's API tokens over REST: list, create, revoke, purge orphaned OAuth tokens (hosted). */
@Module({
  controllers: [AuthTokensController],
  providers: [AuthTokensService],
})
export class AuthTokensModule {}
