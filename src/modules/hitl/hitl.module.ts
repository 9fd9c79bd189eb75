import { Module } from '@nestjs/common';
import { ProfileLayersModule } from '../profile-layers/profile-layers.module';
import { HitlController } from './hitl.controller';
import { HitlContextSection } from './hitl-context.section';
import { HitlService } from './hitl.service';
import { HitlTools } from './hitl.tools';

@Module({
  imports: [ProfileLayersModule],
  controllers: [HitlController],
  providers: [HitlService, HitlTools, HitlContextSection],
  exports: [HitlService],
})
export class HitlModule {}
