import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { MergeWorktreeDto } from './dto/merge-worktree.dto';
import { RegisterWorktreeDto } from './dto/register-worktree.dto';
import { WorktreeIdParamsDto } from './dto/worktree-id-params.dto';
import { WorktreeView } from './executor.views';
import { MergeAnswer, WorktreeMergesService } from './worktree-merges.service';
import { WorktreesService } from './worktrees.service';

@Controller('projects/:project_id/worktrees')
export class WorktreesController {
  constructor(
    private readonly worktrees: WorktreesService,
    private readonly merges: WorktreeMergesService,
  ) {}

  @Get()
  list(@Param() params: ProjectIdDto): Promise<WorktreeView[]> {
    return this.worktrees.list(params.project_id);
  }

  @Post()
  register(@Param() params: ProjectIdDto, @Body() body: RegisterWorktreeDto): Promise<WorktreeView> {
    return this.worktrees.register(params.project_id, body);
  }

  @Get('pending_cleanup')
  pendingCleanup(@Param() params: ProjectIdDto): Promise<WorktreeView[]> {
    return this.worktrees.list(params.project_id, true);
  }

  @Post('sweep')
  @HttpCode(200)
  sweep(@Param() params: ProjectIdDto) {
    return this.worktrees.sweep(params.project_id);
  }

  /** 200 when the merge may go ahead, 202 while it waits for a person's approval (require_merge_approval). */
  @Post(':worktree_id/merge')
  async merge(@Param() params: WorktreeIdParamsDto, @Body() body: MergeWorktreeDto, @Res({ passthrough: true }) res: Response): Promise<MergeAnswer> {
    const answer = await this.merges.merge(params.project_id, params.worktree_id, body);
    res.status(answer.worktree.merge_status === 'awaiting_approval' ? 202 : 200);
    return answer;
  }

  @Delete(':worktree_id')
  @HttpCode(204)
  remove(@Param() params: WorktreeIdParamsDto): Promise<void> {
    return this.worktrees.remove(params.project_id, params.worktree_id);
  }
}
