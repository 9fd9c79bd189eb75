import { Controller, Get, Header, Param, StreamableFile } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AttributionService } from './attribution.service';

@Controller('projects/:project_id')
export class AttributionController {
  constructor(private readonly attribution: AttributionService) {}

  /** The tamper-evident attribution report, as a PDF download; `npm run verify-export -- <file>` checks it. */
  @Get('export/pdf')
  @Header('Cache-Control', 'no-store')
  async pdf(@Param() params: ProjectIdDto): Promise<StreamableFile> {
    const report = await this.attribution.report(params.project_id);
    return new StreamableFile(report.pdf, { type: 'application/pdf', disposition: `attachment; filename="${report.file_name}"`, length: report.pdf.length });
  }
}
