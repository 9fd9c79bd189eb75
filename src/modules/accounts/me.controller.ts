import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { PrincipalRequest } from '../../common/auth/principal';
import { ProjectsService } from '../projects/projects.service';
import { AccountRequests } from './account-requests.service';
import { SessionIdDto, SwitchWorkspaceDto } from './dto/account.dto';
import { WebSessions } from './web-sessions.service';
import { Answers, SEE_OTHER } from '../../common/http/answers.decorator';

/** The signed-in person: who they are, their workspaces, their web sessions, signing out. */
@Controller()
export class MeController {
  constructor(
    private readonly requests: AccountRequests,
    private readonly sessions: WebSessions,
    private readonly projects: ProjectsService,
  ) {}

  @Public()
  @Get('me')
  me(@Req() req: Request) {
    return this.requests.me(req);
  }

  @Public()
  @Get('me/workspaces')
  workspaces(@Req() req: Request) {
    return this.requests.workspaces(req);
  }

  /** Makes another of the person's workspaces the one this browser acts in. */
  @Public()
  @Post('me/workspace')
  @HttpCode(200)
  switchWorkspace(@Req() req: Request, @Body() body: SwitchWorkspaceDto) {
    return this.requests.switchWorkspace(req, body.workspace_id);
  }

  /** The workspace's profile with its projects, for a cookie or a bearer token. */
  @Get('auth/me')
  async authMe(@Req() req: PrincipalRequest) {
    return { ...(await this.requests.me(req)), projects: await this.projects.list() };
  }

  @Public()
  @Get('auth/logout')
  @Answers(SEE_OTHER)
  async logout(@Req() req: Request, @Res() res: Response) {
    await this.sessions.signOut(req, res);
    res.redirect(303, '/');
  }

  @Public()
  @Get('account/sessions')
  async listSessions(@Req() req: Request) {
    const person = await this.requests.person(req);
    return this.sessions.list(person.accountId, person.sessionId);
  }

  @Public()
  @Post('account/sessions/:session_id/revoke')
  @HttpCode(204)
  async revokeSession(@Req() req: Request, @Param() params: SessionIdDto) {
    await this.requests.revokeSession(req, params.session_id);
  }
}
