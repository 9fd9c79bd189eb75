import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PrincipalRequest } from '../../common/auth/principal';
import { Public } from '../../common/auth/public.decorator';
import { AcceptInviteDto } from './dto/accept-invite.dto';
import { InviteMemberDto } from './dto/invite-member.dto';
import { MemberIdDto } from './dto/member-id.dto';
import { UpdateMemberDto } from './dto/update-member.dto';
import { InvitedMember, InvitesService } from './invites.service';
import { MemberView } from './member.view';
import { MembersService } from './members.service';
import { Answers, REDIRECT } from '../../common/http/answers.decorator';

/** The people of the current workspace (hosted): members, invitations, roles. */
@Controller('workspace')
export class MembersController {
  constructor(
    private readonly members: MembersService,
    private readonly invites: InvitesService,
  ) {}

  @Get('members')
  list(@Req() req: PrincipalRequest): Promise<MemberView[]> {
    return this.members.list(req.principal);
  }

  @Post('invite')
  invite(@Req() req: PrincipalRequest, @Body() body: InviteMemberDto): Promise<InvitedMember> {
    return this.invites.invite(req.principal, body);
  }

  @Post('invite/:member_id/resend')
  @HttpCode(200)
  resend(@Req() req: PrincipalRequest, @Param() params: MemberIdDto): Promise<InvitedMember> {
    return this.invites.resend(req.principal, params.member_id);
  }

  /** The invitation e-mail's link; it needs no workspace yet, only the invited person signed in. */
  @Get('accept')
  @Public()
  @Answers(REDIRECT)
  accept(@Query() query: AcceptInviteDto, @Req() req: PrincipalRequest, @Res() res: Response): Promise<void> {
    return this.invites.accept(query.token, req, res);
  }

  @Patch('members/:member_id')
  update(@Req() req: PrincipalRequest, @Param() params: MemberIdDto, @Body() body: UpdateMemberDto): Promise<MemberView> {
    return this.members.update(req.principal, params.member_id, body);
  }

  @Delete('members/:member_id')
  @HttpCode(204)
  remove(@Req() req: PrincipalRequest, @Param() params: MemberIdDto): Promise<void> {
    return this.members.remove(req.principal, params.member_id);
  }
}
