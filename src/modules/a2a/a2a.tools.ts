import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { A2aService } from './a2a.service';
import { ListA2aTasksDto } from './dto/list-a2a-tasks.dto';
import { UpdateA2aTaskDto } from './dto/update-a2a-task.dto';

/** What a project's sessions do with tasks other agents handed over. */
@Injectable()
export class A2aTools {
  constructor(private readonly a2a: A2aService) {}

  @McpTool({
    name: 'list_a2a_tasks',
    annotations: READ_ONLY,
    description: 'Tasks other agents sent to a project over A2A; open ones unless a state (or all) is named.',
    input: ListA2aTasksDto,
  })
  list(input: ListA2aTasksDto) {
    return this.a2a.list(input.project_id, input.state, input.limit);
  }

  @McpTool({
    name: 'update_a2a_task',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Move an A2A task on (working, input_required, completed, failed, rejected) with a note the sending agent reads.',
    input: UpdateA2aTaskDto,
  })
  update(input: UpdateA2aTaskDto) {
    return this.a2a.update(input.task_id, input.state, input.note, input.human_id);
  }
}
