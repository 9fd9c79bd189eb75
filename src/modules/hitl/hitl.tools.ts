import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { output } from '../../mcp/tool-schema';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AnswerHitlDto } from './dto/answer-hitl.dto';
import { CreateHitlDto } from './dto/create-hitl.dto';
import { DismissHitlDto } from './dto/dismiss-hitl.dto';
import { HitlIdDto } from './dto/hitl-id.dto';
import { HitlScopeDto } from './dto/hitl-scope.dto';
import { ListHitlQueryDto } from './dto/list-hitl-query.dto';
import { WaitQueryDto } from './dto/wait-query.dto';
import { HitlService } from './hitl.service';

@Injectable()
export class HitlTools {
  constructor(private readonly hitl: HitlService) {}

  @McpTool({
    name: 'request_hitl',
    annotations: ADDITIVE,
    outputSchema: output({ id: 'string', status: 'string' }),
    description: 'Ask a person a question (answer: get_hitl_request).',
    params: ProjectIdDto,
    body: CreateHitlDto,
  })
  request(params: ProjectIdDto, body: CreateHitlDto) {
    return this.hitl.create(params.project_id, body);
  }

  @McpTool({
    name: 'get_hitl_request',
    annotations: READ_ONLY,
    outputSchema: output({ status: 'string', answer: ['string', 'null'] }),
    description: 'A HITL request; wait (seconds) for its answer.',
    params: HitlIdDto,
    body: WaitQueryDto,
  })
  get(params: HitlIdDto, query: WaitQueryDto) {
    return this.hitl.get(params.request_id, query.wait);
  }

  @McpTool({
    name: 'list_hitl_requests',
    annotations: READ_ONLY,
    description: 'List HITL requests of a project (or of all projects without project_id), newest first; status pending (default), answered, dismissed or all; limit default 50.',
    params: HitlScopeDto,
    body: ListHitlQueryDto,
  })
  list(params: HitlScopeDto, query: ListHitlQueryDto) {
    return this.hitl.list(params.project_id, query);
  }

  @McpTool({ name: 'answer_hitl', annotations: IDEMPOTENT_UPDATE, description: 'Answer a pending HITL request; the waiting session is woken at once.', input: AnswerHitlDto })
  answer(input: AnswerHitlDto) {
    return this.hitl.update(input.request_id, { action: 'answer', answer: input.answer, answered_by: input.answered_by });
  }

  @McpTool({ name: 'dismiss_hitl', annotations: IDEMPOTENT_UPDATE, description: 'Dismiss a pending HITL request without an answer.', input: DismissHitlDto })
  dismiss(input: DismissHitlDto) {
    return this.hitl.update(input.request_id, { action: 'dismiss', answered_by: input.answered_by });
  }
}
