import { Body, Controller, Get, Param, Put, Res } from '@nestjs/common';
import type { Response } from 'express';
import { FileParamsDto } from './dto/file-params.dto';
import { ProjectIdDto } from './dto/project-id.dto';
import { SectionParamsDto } from './dto/section-params.dto';
import { UpdateSectionDto } from './dto/update-section.dto';
import { WriteFileDto } from './dto/write-file.dto';
import { ProjectFileSummary, ProjectFilesService, SectionUpdateResult } from './project-files.service';
import { ProjectFileView } from './project-file.view';

@Controller('projects/:project_id/files')
export class ProjectFilesController {
  constructor(private readonly files: ProjectFilesService) {}

  @Get()
  list(@Param() params: ProjectIdDto): Promise<ProjectFileSummary[]> {
    return this.files.list(params.project_id);
  }

  @Get(':filename')
  read(@Param() params: FileParamsDto): Promise<ProjectFileView> {
    return this.files.read(params.project_id, params.filename);
  }

  /** 201 when the file is new, 200 when it replaced one. */
  @Put(':filename')
  async write(@Param() params: FileParamsDto, @Body() body: WriteFileDto, @Res({ passthrough: true }) res: Response): Promise<ProjectFileView> {
    const { file, created } = await this.files.write(params.project_id, params.filename, body.content);
    res.status(created ? 201 : 200);
    return file;
  }

  /** The REST door of update_md_section: 202 when a repository edit waits for a person's review. */
  @Put(':filename/sections/:section')
  async updateSection(@Param() params: SectionParamsDto, @Body() body: UpdateSectionDto, @Res({ passthrough: true }) res: Response): Promise<SectionUpdateResult> {
    const result = await this.files.updateSection(params.project_id, params.filename, params.section, body.content, body);
    if (result.location !== 'baton' && !result.applied) res.status(202);
    return result;
  }
}
