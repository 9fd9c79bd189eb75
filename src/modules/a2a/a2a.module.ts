import { Module } from '@nestjs/common';
import { A2aContextSection } from './a2a-context.section';
import { A2aController } from './a2a.controller';
import { AgentCardController } from './agent-card.controller';
import { A2aService } from './a2a.service';
import { A2aTools } from './a2a.tools';

@Module({
  controllers: [AgentCardController, A2aController],
  providers: [A2aService, A2aTools, A2aContextSection],
})
export class A2aModule {}
