import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { AnswerHitlToolDto } from './dto/answer-hitl-tool.dto';
import { CreateHitlToolDto } from './dto/create-hitl-tool.dto';
import { DismissHitlToolDto } from './dto/dismiss-hitl-tool.dto';
import { GetHitlToolDto } from './dto/get-hitl-tool.dto';
import { ListHitlToolDto } from './dto/list-hitl-tool.dto';
import { HitlService } from './hitl.service';

@Injectable()
export class HitlTools {
  constructor(private readonly hitl: HitlService) {}

  @McpTool({
    name: 'request_hitl',
    description:
      'Ask a person a question (human in the loop). Returns at once with the request; then call get_hitl_request with wait (seconds) to wait for the answer. Auto-answered when the project has hitl_auto_answer on, unless require_human.',
    input: CreateHitlToolDto,
  })
  request(input: CreateHitlToolDto) {
    return this.hitl.create(input.project_id, input);
  }

  @McpTool({
    name: 'get_hitl_request',
    description: 'Check a HITL request. With wait (seconds, capped at the server maximum, 50 by default) it returns as soon as the request is answered or dismissed.',
    input: GetHitlToolDto,
  })
  get(input: GetHitlToolDto) {
    return this.hitl.get(input.request_id, input.wait);
  }

  @McpTool({
    name: 'list_hitl_requests',
    description: 'List HITL requests of a project (or of all projects without project_id), newest first; status pending (default), answered, dismissed or all; limit default 50.',
    input: ListHitlToolDto,
  })
  list(input: ListHitlToolDto) {
    return this.hitl.list(input.project_id, input);
  }

  @McpTool({ name: 'answer_hitl', description: 'Answer a pending HITL request; the waiting session is woken at once.', input: AnswerHitlToolDto })
  answer(input: AnswerHitlToolDto) {
    return this.hitl.update(input.request_id, { action: 'answer', answer: input.answer, answered_by: input.answered_by });
  }

  @McpTool({ name: 'dismiss_hitl', description: 'Dismiss a pending HITL request without an answer.', input: DismissHitlToolDto })
  dismiss(input: DismissHitlToolDto) {
    return this.hitl.update(input.request_id, { action: 'dismiss', answered_by: input.answered_by });
  }
}
