import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { ClaimTaskDto } from './dto/claim-task.dto';
import { ClaimableQueryDto } from './dto/claimable-query.dto';
import { CreateTaskDto } from './dto/create-task.dto';
import { EnqueueTaskDto } from './dto/enqueue-task.dto';
import { ListTasksQueryDto } from './dto/list-tasks-query.dto';
import { ReleaseTaskDto } from './dto/release-task.dto';
import { SearchTasksQueryDto } from './dto/search-tasks-query.dto';
import { TaskIdDto } from './dto/task-id.dto';
import { UpdateTaskDto } from './dto/update-task.dto';
import { ClaimResult, TaskClaimsService } from './task-claims.service';
import { TaskSearchService } from './task-search.service';
import { TaskView } from './task.view';
import { TasksService } from './tasks.service';

@Controller()
export class TasksController {
  constructor(
    private readonly tasks: TasksService,
    private readonly claims: TaskClaimsService,
    private readonly searcher: TaskSearchService,
  ) {}

  @Get('projects/:project_id/tasks')
  list(@Param() params: ProjectIdDto, @Query() query: ListTasksQueryDto): Promise<TaskView[]> {
    return this.tasks.list(params.project_id, query);
  }

  @Get('projects/:project_id/tasks/claimable')
  claimable(@Param() params: ProjectIdDto, @Query() query: ClaimableQueryDto): Promise<TaskView[]> {
    return this.claims.claimable(params.project_id, query);
  }

  @Post('projects/:project_id/tasks/claim')
  @HttpCode(200)
  claim(@Param() params: ProjectIdDto, @Body() body: ClaimTaskDto): Promise<ClaimResult> {
    return this.claims.claim(params.project_id, body);
  }

  @Post('projects/:project_id/tasks/release')
  @HttpCode(200)
  release(@Param() params: ProjectIdDto, @Body() body: ReleaseTaskDto) {
    return this.claims.release(params.project_id, body);
  }

  @Get('projects/:project_id/tasks/search')
  search(@Param() params: ProjectIdDto, @Query() query: SearchTasksQueryDto): Promise<TaskView[]> {
    return this.searcher.search(params.project_id, query);
  }

  @Post('tasks')
  create(@Body() body: CreateTaskDto): Promise<TaskView> {
    return this.tasks.create(body);
  }

  @Post('tasks/enqueue')
  enqueue(@Body() body: EnqueueTaskDto): Promise<TaskView> {
    return this.tasks.enqueue(body);
  }

  @Get('tasks/:task_id')
  get(@Param() params: TaskIdDto): Promise<TaskView> {
    return this.tasks.get(params.task_id);
  }

  @Patch('tasks/:task_id')
  update(@Param() params: TaskIdDto, @Body() body: UpdateTaskDto): Promise<TaskView> {
    return this.tasks.update(params.task_id, body);
  }

  @Delete('tasks/:task_id')
  @HttpCode(204)
  remove(@Param() params: TaskIdDto): Promise<void> {
    return this.tasks.remove(params.task_id);
  }
}
