import { Module } from '@nestjs/common';
import { GoalsContextSection } from './goals-context.section';
import { GoalsController } from './goals.controller';
import { GoalsService } from './goals.service';
import { GoalsTools } from './goals.tools';

@Module({
  controllers: [GoalsController],
  providers: [GoalsService, GoalsContextSection, GoalsTools],
  exports: [GoalsService],
})
export class GoalsModule {}
