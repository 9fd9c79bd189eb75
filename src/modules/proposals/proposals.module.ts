import { Module } from '@nestjs/common';
import { SprintModule } from '../sprint/sprint.module';
import { ProposalsService } from './proposals.service';
import { ProposalsTools } from './proposals.tools';

@Module({
  imports: [SprintModule],
  providers: [ProposalsService, ProposalsTools],
  exports: [ProposalsService],
})
export class ProposalsModule {}
