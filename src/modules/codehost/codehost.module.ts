import { Module } from '@nestjs/common';
import { AuthProvidersModule } from '../auth-providers/auth-providers.module';
import { CodehostClient } from './codehost.client';
import { CodehostController } from './codehost.controller';
import { CodehostCommits } from './codehost-commits.service';
import { CodehostLinks } from './codehost-links.service';
import { CodehostReads } from './codehost-reads.service';
import { CodehostTools } from './codehost.tools';
import { CodehostWrites } from './codehost-writes.service';

/** A project's code-host repository: the link, reads, and the writes made only when asked and permitted. */
@Module({
  imports: [AuthProvidersModule],
  controllers: [CodehostController],
  providers: [CodehostClient, CodehostLinks, CodehostReads, CodehostWrites, CodehostTools, CodehostCommits],
  exports: [CodehostCommits, CodehostReads, CodehostWrites],
})
export class CodehostModule {}
