import { Module } from '@nestjs/common';
import { CodehostConnections } from './codehost-connections.service';
import { CodehostController } from './codehost.controller';
import { ProviderDirectory } from './provider-directory.service';
import { ProviderSignIn } from './provider-sign-in.service';
import { ProviderStrategies } from './provider-strategies.service';
import { RepoConnect } from './repo-connect.service';
import { SignInController } from './sign-in.controller';

/** Hosted sign-in through identity providers and the code host, and the code-host repository connection (spec §5 flows 1 and 2). */
@Module({
  controllers: [SignInController, CodehostController],
  providers: [ProviderDirectory, ProviderStrategies, ProviderSignIn, RepoConnect, CodehostConnections],
  exports: [CodehostConnections],
})
export class AuthProvidersModule {}
