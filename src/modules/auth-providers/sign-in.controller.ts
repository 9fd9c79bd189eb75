import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { ProviderSignIn } from './provider-sign-in.service';
import { Answers, HTML_PAGE, REDIRECT } from '../../common/http/answers.decorator';

/** Spec §5 flow 1: the sign-in page, and each provider's start and callback (browser redirects, hosted only). */
@Controller('auth')
@Public()
export class SignInController {
  constructor(private readonly signIn: ProviderSignIn) {}

  @Get('login')
  @Answers(HTML_PAGE)
  loginPage(@Query() query: Record<string, unknown>, @Res() res: Response): void {
    this.signIn.loginPage(query, res);
  }

  @Get('email-required')
  @Answers(HTML_PAGE)
  emailRequired(@Query() query: Record<string, unknown>, @Res() res: Response): void {
    this.signIn.emailRequiredPage(query, res);
  }

  @Get('idpa/login')
  @Answers(REDIRECT)
  idpaLogin(@Query('next') next: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signIn.start('idpa', next, req, res);
  }

  @Get(['callback', 'idpa/callback'])
  @Answers(REDIRECT)
  idpaCallback(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signIn.finish('idpa', req, res);
  }

  @Get('idpc/login')
  @Answers(REDIRECT)
  idpcLogin(@Query('next') next: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signIn.start('idpc', next, req, res);
  }

  @Get('idpc/callback')
  @Answers(REDIRECT)
  idpcCallback(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signIn.finish('idpc', req, res);
  }

  @Get('codehost/login')
  @Answers(REDIRECT)
  codehostLogin(@Query('next') next: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signIn.start('codehost', next, req, res);
  }

  @Get('codehost/callback')
  @Answers(REDIRECT)
  codehostCallback(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signIn.finish('codehost', req, res);
  }
}
