import { Module } from '@nestjs/common';
import { AiLogModule } from '../ai-log/ai-log.module';
import { AttributionController } from './attribution.controller';
import { AttributionService } from './attribution.service';

/**
 * The attribution report (`GET /projects/{project_id}/export/pdf`): who did
 * what in a project, read from its records and the AI-log, hash-chained and
 * rendered as a PDF that carries its own ledger. `src/cli/verify-export.ts`
 * checks an exported file.
 */
@Module({
  imports: [AiLogModule],
  controllers: [AttributionController],
  providers: [AttributionService],
})
export class AttributionModule {}
