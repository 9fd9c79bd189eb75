import { Module } from '@nestjs/common';
import { ProfileLayersModule } from '../profile-layers/profile-layers.module';
import { HitlController } from './hitl.controller';
import { HitlContextSection } from './hitl-context.section';
import { HitlDecisionHooks } from './hitl-decision-hooks';
import { HitlService } from './hitl.service';
import { HitlTools } from './hitl.tools';

@Module({
  imports: [ProfileLayersModule],
  controllers: [HitlController],
  providers: [HitlService, HitlTools, HitlContextSection, HitlDecisionHooks],
  exports: [HitlService, HitlDecisionHooks],
})
export class HitlModule {}
