import { Module } from '@nestjs/common';
import { AiLogArchiveService } from './ai-log-archive.service';
import { AiLogCaptureService } from './ai-log-capture.service';
import { AiLogController } from './ai-log.controller';
import { AiLogExportConfigService } from './ai-log-export-config.service';
import { AiLogExportStateStore } from './ai-log-export-state.store';
import { AiLogOtelExportService } from './ai-log-otel-export.service';
import { AiLogRecorder } from './ai-log-recorder.service';
import { AiLogTimelineService } from './ai-log-timeline.service';
import { AiLogTools } from './ai-log.tools';
import { OtlpLibraryLoader } from './otlp-library.loader';

/**
 * The AI-log (service spec §6): captures session starts, MCP tool calls and
 * handoff corrections into ai_log_events, serves the project timelines,
 * JSON-lines export and purge, and the on-demand OTLP export.
 */
@Module({
  controllers: [AiLogController],
  providers: [
    AiLogRecorder,
    AiLogCaptureService,
    AiLogTimelineService,
    AiLogArchiveService,
    AiLogExportConfigService,
    AiLogExportStateStore,
    AiLogOtelExportService,
    OtlpLibraryLoader,
    AiLogTools,
  ],
  exports: [AiLogRecorder],
})
export class AiLogModule {}
