import { Module } from '@nestjs/common';
import { WindowLimiter } from '../../common/rate-limit/window-limiter';
import { InvitesService } from './invites.service';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';

/** A workspace's people (hosted): members, invitations, roles and code-host access caps. */
@Module({ controllers: [MembersController], providers: [MembersService, InvitesService, WindowLimiter], exports: [MembersService] })
export class MembersModule {}
