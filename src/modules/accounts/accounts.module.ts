import { Global, Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { AccountRequests } from './account-requests.service';
import { Accounts } from './accounts.service';
import { MeController } from './me.controller';
import { SignIn } from './sign-in.service';
import { WebSessions } from './web-sessions.service';

/** People who sign in (hosted): accounts, their workspaces, web sessions, and the end of every sign-in flow. */
@Global()
@Module({
  imports: [ProjectsModule],
  controllers: [MeController],
  providers: [Accounts, WebSessions, SignIn, AccountRequests],
  exports: [Accounts, WebSessions, SignIn, AccountRequests],
})
export class AccountsModule {}
