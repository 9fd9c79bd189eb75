import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiTokenView } from '../tenants/api-tokens.service';
import { AuthTokensService } from './auth-tokens.service';
import { CreateApiTokenDto } from './dto/create-api-token.dto';
import { TokenIdDto } from './dto/token-id.dto';

/** A workspace's API tokens (spec §5, item 6) and the purge of orphaned OAuth tokens. */
@Controller()
export class AuthTokensController {
  constructor(private readonly tokens: AuthTokensService) {}

  @Get('auth/tokens')
  list(@CurrentPrincipal() principal: Principal): Promise<ApiTokenView[]> {
    return this.tokens.list(principal);
  }

  /** 201 with the token's value, shown this once. */
  @Post('auth/tokens')
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiTokenDto): Promise<ApiTokenView & { token: string }> {
    return this.tokens.create(principal, body);
  }

  @Delete('auth/tokens/:token_id')
  @HttpCode(204)
  revoke(@CurrentPrincipal() principal: Principal, @Param() params: TokenIdDto): Promise<void> {
    return this.tokens.revoke(principal, params.token_id);
  }

  @Delete('api/keys/orphaned')
  purgeOrphaned(@CurrentPrincipal() principal: Principal): Promise<{ deleted: number }> {
    return this.tokens.purgeOrphaned(principal);
  }
}
