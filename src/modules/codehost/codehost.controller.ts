import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { CodehostLinks } from './codehost-links.service';
import { BranchView, CodehostReads } from './codehost-reads.service';
import { RepositoryView } from './codehost-repository.view';
import { CodehostStatusView } from './codehost-status.view';
import { CodehostWrites, FileWriteView } from './codehost-writes.service';
import { CodehostAccountDto } from './dto/codehost-account.dto';
import { ConnectCodehostDto } from './dto/connect-codehost.dto';
import { PushMcpTemplateDto } from './dto/push-mcp-template.dto';
import { ReposQueryDto } from './dto/repos-query.dto';

@Controller('projects/:project_id')
export class CodehostController {
  constructor(
    private readonly links: CodehostLinks,
    private readonly reads: CodehostReads,
    private readonly writes: CodehostWrites,
  ) {}

  @Post('codehost/connect')
  @HttpCode(200)
  connect(@CurrentPrincipal() principal: Principal, @Param() params: ProjectIdDto, @Body() body: ConnectCodehostDto): Promise<CodehostStatusView> {
    return this.links.connect(principal, params.project_id, body);
  }

  @Patch('codehost/account')
  account(@CurrentPrincipal() principal: Principal, @Param() params: ProjectIdDto, @Body() body: CodehostAccountDto): Promise<CodehostStatusView> {
    return this.links.changeAccount(principal, params.project_id, body);
  }

  @Delete('codehost/disconnect')
  @HttpCode(204)
  disconnect(@Param() params: ProjectIdDto): Promise<void> {
    return this.links.disconnect(params.project_id);
  }

  @Get('codehost/status')
  status(@Param() params: ProjectIdDto): Promise<CodehostStatusView> {
    return this.links.status(params.project_id);
  }

  @Get('codehost/repos')
  repos(@CurrentPrincipal() principal: Principal, @Param() params: ProjectIdDto, @Query() query: ReposQueryDto): Promise<RepositoryView[]> {
    return this.reads.repos(principal, params.project_id, query);
  }

  @Get('codehost/branches')
  branches(@Param() params: ProjectIdDto): Promise<BranchView[]> {
    return this.reads.branches(params.project_id);
  }

  @Post('codehost/push-mcp-template')
  @HttpCode(200)
  pushMcpTemplate(@Param() params: ProjectIdDto, @Body() body: PushMcpTemplateDto): Promise<FileWriteView> {
    return this.writes.pushMcpTemplate(params.project_id, body);
  }

  @Get('repo-image')
  image(@Param() params: ProjectIdDto): Promise<{ repo: string; image_url: string | null }> {
    return this.reads.image(params.project_id);
  }
}
