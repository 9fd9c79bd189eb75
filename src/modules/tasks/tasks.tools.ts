import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, DESTRUCTIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { output } from '../../mcp/tool-schema';
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
import { TaskClaimsService } from './task-claims.service';
import { TaskSearchService } from './task-search.service';
import { TasksService } from './tasks.service';

@Injectable()
export class TasksTools {
  constructor(
    private readonly tasks: TasksService,
    private readonly claims: TaskClaimsService,
    private readonly searcher: TaskSearchService,
  ) {}

  @McpTool({
    name: 'log_task',
    annotations: ADDITIVE,
    outputSchema: output({ id: 'string' }),
    description: "Add an entry to a project's task log.",
    input: CreateTaskDto,
  })
  log(input: CreateTaskDto) {
    return this.tasks.create(input);
  }

  @McpTool({
    name: 'get_tasks',
    annotations: READ_ONLY,
    description: 'List the tasks of a project, newest first (limit default 50, at most 200; offset; optional status).',
    params: ProjectIdDto,
    body: ListTasksQueryDto,
  })
  list(params: ProjectIdDto, query: ListTasksQueryDto) {
    return this.tasks.list(params.project_id, query);
  }

  @McpTool({ name: 'get_task', annotations: READ_ONLY, description: 'Get one task by id.', input: TaskIdDto })
  get(input: TaskIdDto) {
    return this.tasks.get(input.task_id);
  }

  @McpTool({
    name: 'update_task',
    annotations: IDEMPOTENT_UPDATE,
    description: "Change a task's description and/or status (claim and release move tasks in and out of in_progress).",
    params: TaskIdDto,
    body: UpdateTaskDto,
  })
  update(params: TaskIdDto, body: UpdateTaskDto) {
    return this.tasks.update(params.task_id, body);
  }

  @McpTool({ name: 'delete_task', annotations: DESTRUCTIVE, description: 'Delete a task for good.', input: TaskIdDto })
  async remove(input: TaskIdDto) {
    await this.tasks.remove(input.task_id);
    return { deleted: input.task_id };
  }

  @McpTool({
    name: 'get_claimable_tasks',
    annotations: READ_ONLY,
    description: 'List the pending tasks of a project nobody works on, oldest first.',
    params: ProjectIdDto,
    body: ClaimableQueryDto,
  })
  claimable(params: ProjectIdDto, query: ClaimableQueryDto) {
    return this.claims.claimable(params.project_id, query);
  }

  @McpTool({
    name: 'claim_task',
    annotations: ADDITIVE,
    description:
      'Atomically claim a pending task for a live session (the oldest pending one when task_id is omitted). claimed is false, with claimed_by, when another session got it first.',
    params: ProjectIdDto,
    body: ClaimTaskDto,
  })
  claim(params: ProjectIdDto, body: ClaimTaskDto) {
    return this.claims.claim(params.project_id, body);
  }

  @McpTool({
    name: 'release_task',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Hand a claimed task back to pending; only the session that claimed it can.',
    params: ProjectIdDto,
    body: ReleaseTaskDto,
  })
  release(params: ProjectIdDto, body: ReleaseTaskDto) {
    return this.claims.release(params.project_id, body);
  }

  @McpTool({
    name: 'search_tasks',
    annotations: READ_ONLY,
    description: 'Full-text search over the task descriptions of a project (every word must match), best match first.',
    params: ProjectIdDto,
    body: SearchTasksQueryDto,
  })
  search(params: ProjectIdDto, query: SearchTasksQueryDto) {
    return this.searcher.search(params.project_id, query);
  }

  @McpTool({ name: 'enqueue_task', annotations: ADDITIVE, description: 'Queue work for an executor: stores a pending task it can claim.', input: EnqueueTaskDto })
  enqueue(input: EnqueueTaskDto) {
    return this.tasks.enqueue(input);
  }
}
