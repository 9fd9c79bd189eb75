import { Body, Controller, Get, Param, Post, Query, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { ProjectFileView } from '../projects/project-file.view';
import { CodebaseMapService, CodebaseMapView } from './codebase-map.service';
import { DocumentReview, DocumentsService, DocumentStructure, UploadedText } from './documents.service';
import { DocumentUploadInterceptor } from './document-upload.interceptor';
import { CodebaseMapDto } from './dto/codebase-map.dto';
import { SearchQueryDto } from './dto/search-query.dto';
import { UploadDocumentDto } from './dto/upload-document.dto';
import { SearchAnswer, SearchService } from './search.service';

@Controller('projects/:project_id')
export class KnowledgeController {
  constructor(
    private readonly maps: CodebaseMapService,
    private readonly documents: DocumentsService,
    private readonly searches: SearchService,
  ) {}

  @Post('codebase-map')
  map(@Param() params: ProjectIdDto, @Body() body: CodebaseMapDto): Promise<CodebaseMapView> {
    return this.maps.record(params.project_id, body);
  }

  @Get('search')
  search(@Param() params: ProjectIdDto, @Query() query: SearchQueryDto): Promise<SearchAnswer> {
    return this.searches.search(params.project_id, query);
  }

  @Get('document-structure')
  structure(@Param() params: ProjectIdDto, @CurrentPrincipal() principal: Principal): Promise<{ documents: DocumentStructure[] }> {
    return this.documents.structure(params.project_id, { viewer: principal.accountId ?? principal.kind, via: 'rest' });
  }

  @Get('document-review')
  review(@Param() params: ProjectIdDto): Promise<{ documents: DocumentReview[]; issue_count: number }> {
    return this.documents.review(params.project_id);
  }

  /** multipart/form-data: `file` (text/plain or text/markdown), optional `filename`. 201 when the file is new, 200 when it replaced one. */
  @Post('documents/upload')
  @UseInterceptors(DocumentUploadInterceptor)
  async upload(
    @Param() params: ProjectIdDto,
    @Body() body: UploadDocumentDto,
    @UploadedFile() file: UploadedText | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ProjectFileView> {
    const { file: stored, created } = await this.documents.upload(params.project_id, file, body.filename);
    res.status(created ? 201 : 200);
    return stored;
  }
}
