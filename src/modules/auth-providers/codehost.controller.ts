import { Controller, Delete, Get, HttpCode, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { CodehostConnections } from './codehost-connections.service';
import { CodehostConnectionView } from './codehost-connection.view';
import { AccountLoginDto } from './dto/account-login.dto';
import { RepoConnect } from './repo-connect.service';
import { Answers, REDIRECT } from '../../common/http/answers.decorator';

/**
 * Spec §5 flow 2 and the connections it leaves: the signed-in person's code-host accounts. Public
 * to the tenant guard: a connection is the person's, whatever their current workspace (or none),
 * so the services read the web session themselves.
 */
@Controller()
export class CodehostController {
  constructor(
    private readonly repoConnect: RepoConnect,
    private readonly connections: CodehostConnections,
  ) {}

  @Get('auth/codehost/repo-connect')
  @Public()
  @Answers(REDIRECT)
  connect(@Query('next') next: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.repoConnect.start(next, req, res);
  }

  @Get('auth/codehost/repo-callback')
  @Public()
  @Answers(REDIRECT)
  connected(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.repoConnect.finish(req, res);
  }

  @Get('codehost/connections')
  @Public()
  list(@Req() req: Request): Promise<CodehostConnectionView[]> {
    return this.connections.list(req);
  }

  @Delete('codehost/connections/:account_login')
  @Public()
  @HttpCode(204)
  remove(@Param() params: AccountLoginDto, @Req() req: Request): Promise<void> {
    return this.connections.remove(req, params.account_login);
  }
}
