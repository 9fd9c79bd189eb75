import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PrincipalRequest } from '../../common/auth/principal';
import { BillingService } from './billing.service';
import { Answers, SEE_OTHER } from '../../common/http/answers.decorator';

/** Upgrading and managing a hosted workspace's subscription (a signed-in owner or admin). */
@Controller()
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Get('checkout')
  @Answers(SEE_OTHER)
  async checkout(@Req() req: PrincipalRequest, @Res() res: Response): Promise<void> {
    res.redirect(303, await this.billing.checkoutUrl(req.principal));
  }

  @Get('billing/portal')
  @Answers(SEE_OTHER)
  async portal(@Req() req: PrincipalRequest, @Res() res: Response): Promise<void> {
    res.redirect(303, await this.billing.portalUrl(req.principal));
  }

  @Post('billing/portal')
  @HttpCode(200)
  async portalUrl(@Req() req: PrincipalRequest): Promise<{ url: string }> {
    return { url: await this.billing.portalUrl(req.principal) };
  }
}
