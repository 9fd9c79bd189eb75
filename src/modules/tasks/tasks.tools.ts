import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ClaimTaskToolDto } from './dto/claim-task-tool.dto';
import { ClaimableToolDto } from './dto/claimable-tool.dto';
import { CreateTaskDto } from './dto/create-task.dto';
import { EnqueueTaskDto } from './dto/enqueue-task.dto';
import { ListTasksToolDto } from './dto/list-tasks-tool.dto';
import { ReleaseTaskToolDto } from './dto/release-task-tool.dto';
import { SearchTasksToolDto } from './dto/search-tasks-tool.dto';
import { TaskIdDto } from './dto/task-id.dto';
import { UpdateTaskToolDto } from './dto/update-task-tool.dto';
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
    description: 'Add an entry to the task log of a project for a session of it (status default done; pending, in_progress, done, failed, backlog, future, backburner).',
    input: CreateTaskDto,
  })
  log(input: CreateTaskDto) {
    return this.tasks.create(input);
  }

  @McpTool({ name: 'get_tasks', description: 'List the tasks of a project, newest first (limit default 50, at most 200; offset; optional status).', input: ListTasksToolDto })
  list(input: ListTasksToolDto) {
    return this.tasks.list(input.project_id, input);
  }

  @McpTool({ name: 'get_task', description: 'Get one task by id.', input: TaskIdDto })
  get(input: TaskIdDto) {
    return this.tasks.get(input.task_id);
  }

  @McpTool({ name: 'update_task', description: "Change a task's description and/or status (claim and release move tasks in and out of in_progress).", input: UpdateTaskToolDto })
  update(input: UpdateTaskToolDto) {
    return this.tasks.update(input.task_id, input);
  }

  @McpTool({ name: 'delete_task', description: 'Delete a task for good.', input: TaskIdDto })
  async remove(input: TaskIdDto) {
    await this.tasks.remove(input.task_id);
    return { deleted: input.task_id };
  }

  @McpTool({ name: 'get_claimable_tasks', description: 'List the pending tasks of a project nobody works on, oldest first.', input: ClaimableToolDto })
  claimable(input: ClaimableToolDto) {
    return this.claims.claimable(input.project_id, input);
  }

  @McpTool({
    name: 'claim_task',
    description:
      'Atomically claim a pending task for a live session (the oldest pending one when task_id is omitted). claimed is false, with claimed_by, when another session got it first.',
    input: ClaimTaskToolDto,
  })
  claim(input: ClaimTaskToolDto) {
    return this.claims.claim(input.project_id, input);
  }

  @McpTool({ name: 'release_task', description: 'Hand a claimed task back to pending; only the session that claimed it can.', input: ReleaseTaskToolDto })
  release(input: ReleaseTaskToolDto) {
    return this.claims.release(input.project_id, input);
  }

  @McpTool({ name: 'search_tasks', description: 'Full-text search over the task descriptions of a project (every word must match), best match first.', input: SearchTasksToolDto })
  search(input: SearchTasksToolDto) {
    return this.searcher.search(input.project_id, input);
  }

  @McpTool({ name: 'enqueue_task', description: 'Queue work for an executor: stores a pending task it can claim.', input: EnqueueTaskDto })
  enqueue(input: EnqueueTaskDto) {
    return this.tasks.enqueue(input);
  }
}
