import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { DeviceActivation } from './device-activation.service';
import { ConsentDecisionDto } from './dto/consent-decision.dto';
import { DeviceActivationDto } from './dto/device-activation.dto';
import { InteractionUidDto } from './dto/interaction-uid.dto';
import { OAuthConsent } from './oauth-consent.service';
import { Answers, HTML_PAGE, REDIRECT } from '../../common/http/answers.decorator';

/**
 * The authorization server's pages for people (hosted only; OAuthRoutes answers 404 self-hosted):
 * the consent step of an authorization request, and the device flow's /activate. They work on
 * the web-session cookie, so they need no bearer token.
 */
@Controller()
@Public()
export class OAuthPagesController {
  constructor(
    private readonly consent: OAuthConsent,
    private readonly activation: DeviceActivation,
  ) {}

  @Get('oauth/interaction/:uid')
  @Answers(HTML_PAGE)
  showConsent(@Param() params: InteractionUidDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.consent.show(params.uid, req, res);
  }

  @Post('oauth/interaction/:uid')
  @Answers(REDIRECT)
  decideConsent(@Param() params: InteractionUidDto, @Body() body: ConsentDecisionDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.consent.decide(params.uid, body, req, res);
  }

  @Get('activate')
  @Answers(HTML_PAGE)
  showActivation(@Query('user_code') userCode: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.activation.show(userCode, req, res);
  }

  @Post('activate')
  @Answers(HTML_PAGE)
  submitActivation(@Body() body: DeviceActivationDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.activation.submit(body, req, res);
  }

  @Get('oauth/device-callback')
  @Answers(HTML_PAGE)
  deviceDone(@Query('outcome') outcome: unknown, @Res() res: Response): void {
    this.activation.done(outcome, res);
  }
}
