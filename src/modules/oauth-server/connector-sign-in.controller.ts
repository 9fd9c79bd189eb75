import { Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { ConnectorSignIn, ConnectorStart, ConnectorToken } from './connector-sign-in.service';
import { DeviceCodeQueryDto } from './dto/device-code.dto';
import { Answers, HTML_PAGE } from '../../common/http/answers.decorator';

/** What /auth/hooks-status answers: whether the hooks got their token, and the token itself the one time it is shown. */
export interface HooksStatus {
  registered: boolean;
  token: string | null;
  tenant_id: string | null;
}

/**
 * The device sign-in of Baton's connectors (hosted only): start, then poll until the person has
 * approved the code at /activate. The tunnel's poll answers its API token (400
 * AUTHORIZATION_PENDING while waiting); the hooks' status answers `{registered, token}`.
 */
@Controller('auth')
@Public()
export class ConnectorSignInController {
  constructor(private readonly connectors: ConnectorSignIn) {}

  @Get('tunnel-connect')
  startTunnel(@Req() req: Request): Promise<ConnectorStart> {
    return this.connectors.start('tunnel', req);
  }

  @Post('tunnel-connect')
  startTunnelByPost(@Req() req: Request): Promise<ConnectorStart> {
    return this.connectors.start('tunnel', req);
  }

  @Get('tunnel-poll')
  async pollTunnel(@Query() query: DeviceCodeQueryDto): Promise<ConnectorToken> {
    return (await this.connectors.redeem('tunnel', query.device_code)) ?? this.connectors.pending();
  }

  @Get('hooks-connect')
  startHooks(@Req() req: Request): Promise<ConnectorStart> {
    return this.connectors.start('hooks', req);
  }

  /** A page for the signed-in person with a short-lived install token that /auth/hooks-status redeems once. */
  @Get('install')
  @Answers(HTML_PAGE)
  install(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.connectors.installPage(req, res);
  }

  @Get('hooks-status')
  async hooksStatus(@Query() query: DeviceCodeQueryDto): Promise<HooksStatus> {
    const redeemed = await this.connectors.redeem('hooks', query.device_code);
    return { registered: Boolean(redeemed), token: redeemed?.token ?? null, tenant_id: redeemed?.tenant_id ?? null };
  }
}
