import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { CreateHitlDto } from './dto/create-hitl.dto';
import { HitlIdDto } from './dto/hitl-id.dto';
import { ListHitlQueryDto } from './dto/list-hitl-query.dto';
import { UpdateHitlDto } from './dto/update-hitl.dto';
import { WaitQueryDto } from './dto/wait-query.dto';
import { HitlView } from './hitl-request.view';
import { HitlService } from './hitl.service';

@Controller()
export class HitlController {
  constructor(private readonly hitl: HitlService) {}

  @Get('hitl')
  listAll(@Query() query: ListHitlQueryDto): Promise<HitlView[]> {
    return this.hitl.list(undefined, query);
  }

  @Get('projects/:project_id/hitl')
  list(@Param() params: ProjectIdDto, @Query() query: ListHitlQueryDto): Promise<HitlView[]> {
    return this.hitl.list(params.project_id, query);
  }

  @Post('projects/:project_id/hitl')
  create(@Param() params: ProjectIdDto, @Body() body: CreateHitlDto): Promise<HitlView> {
    return this.hitl.create(params.project_id, body);
  }

  @Get('hitl/:request_id')
  get(@Param() params: HitlIdDto, @Query() query: WaitQueryDto): Promise<HitlView> {
    return this.hitl.get(params.request_id, query.wait);
  }

  @Patch('hitl/:request_id')
  update(@Param() params: HitlIdDto, @Body() body: UpdateHitlDto): Promise<HitlView> {
    return this.hitl.update(params.request_id, body);
  }
}
