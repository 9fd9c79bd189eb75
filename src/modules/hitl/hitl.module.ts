import { Module } from '@nestjs/common';
import { HitlController } from './hitl.controller';
import { HitlService } from './hitl.service';
import { HitlTools } from './hitl.tools';

@Module({
  controllers: [HitlController],
  providers: [HitlService, HitlTools],
  exports: [HitlService],
})
export class HitlModule {}
