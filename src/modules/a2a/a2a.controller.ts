import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { requestIsReadOnly } from '../../../libs/tenancy';
import { ChecksReadScope } from '../../common/auth/read-scope.decorator';
import { toErrorResponse } from '../../common/errors/error-response';
import { TenantError } from '../tenants/tenants.errors';
import { isUuid } from '../sprint/dto/sprint-field.rules';
import { A2A_RPC } from './a2a.constants';
import { A2aError } from './a2a.errors';
import { parseRpcRequest, rpcCodeOf } from './a2a-rpc';
import { A2aService } from './a2a.service';
import { A2aAgentIdDto } from './dto/a2a-agent-id.dto';
import { A2aTaskPathDto } from './dto/a2a-task-path.dto';
import { Answers } from '../../common/http/answers.decorator';

/**
 * A2A tasks, authenticated like every project route (a workspace bearer token
 * hosted, none self-hosted). `tasks/send` and `tasks/{task_id}` are the
 * spec's routes, in the protocol's JSON; `POST /a2a/{agent_id}` (and `/a2a`,
 * naming the agent as `tenant`) is A2A 1.0's JSON-RPC binding, which the
 * official clients speak. All of them call the same service.
 */
@Controller('a2a')
export class A2aController {
  constructor(private readonly a2a: A2aService) {}

  /** One project's card (what the SDK's ClientFactory.createFromUrl(`{base}/a2a/{agent_id}/`) reads): authenticated, as it names a project. */
  @Get([':agent_id/.well-known/agent-card.json', ':agent_id/.well-known/agent.json'])
  agentCard(@Param() params: A2aAgentIdDto) {
    return this.a2a.agentCard(params.agent_id);
  }

  /** SendMessageRequest in, SendMessageResponse (`{task}`) out: the task stored as submitted. */
  @Post(':agent_id/tasks/send')
  @HttpCode(200)
  async send(@Param() params: A2aAgentIdDto, @Body() body: unknown) {
    return { task: await this.a2a.send(params.agent_id, body) };
  }

  @Get(':agent_id/tasks/:task_id')
  get(@Param() params: A2aTaskPathDto) {
    return this.a2a.get(params.agent_id, params.task_id);
  }

  /** A read-scope token may post here for GetTask; SendMessage and CancelTask refuse it (below). */
  @Post(':agent_id')
  @ChecksReadScope()
  @Answers({ status: 200, contentType: 'application/json', description: 'The JSON-RPC answer of the A2A binding (SendMessage, GetTask, CancelTask): a result or an error object.' })
  rpcForAgent(@Param() params: A2aAgentIdDto, @Body() body: unknown, @Res() res: Response) {
    return this.rpc(params.agent_id, body, res);
  }

  @Post()
  @ChecksReadScope()
  @Answers({ status: 200, contentType: 'application/json', description: 'The JSON-RPC answer of the A2A binding (SendMessage, GetTask, CancelTask): a result or an error object.' })
  rpcByTenant(@Body() body: unknown, @Res() res: Response) {
    return this.rpc(undefined, body, res);
  }

  private async rpc(pathAgent: string | undefined, body: unknown, res: Response) {
    const request = parseRpcRequest(body);
    if ('problem' in request) {
      res.status(400).json({ jsonrpc: '2.0', id: request.id, error: { code: A2A_RPC.invalidRequest, message: request.problem }, detail: request.problem });
      return;
    }
    try {
      const { params } = request;
      const agentId = pathAgent ?? (typeof params.tenant === 'string' && params.tenant ? params.tenant : undefined);
      if (!agentId || !isUuid(agentId)) throw A2aError.badMessage('params.tenant must name the agent: the id of a project of this workspace');
      const taskId = () => {
        if (typeof params.id !== 'string' || !isUuid(params.id)) throw A2aError.badMessage('params.id must be the id (UUID) of a task');
        return params.id;
      };
      if (request.method !== 'GetTask' && requestIsReadOnly()) throw TenantError.readOnlyToken(`the A2A method ${request.method.slice(0, 80)}`);
      let result: unknown;
      switch (request.method) {
        case 'SendMessage': {
          const { tenant: _tenant, ...send } = params;
          result = { task: await this.a2a.send(agentId, send) };
          break;
        }
        case 'GetTask':
          result = await this.a2a.get(agentId, taskId());
          break;
        case 'CancelTask':
          result = await this.a2a.cancel(agentId, taskId());
          break;
        default: {
          const detail = `method ${request.method.slice(0, 80)} is not supported; Baton answers SendMessage, GetTask and CancelTask`;
          res.status(400).json({ jsonrpc: '2.0', id: request.id, error: { code: A2A_RPC.methodNotFound, message: detail }, detail });
          return;
        }
      }
      res.status(200).json({ jsonrpc: '2.0', id: request.id, result });
    } catch (error) {
      const answer = toErrorResponse(error);
      if (answer.unexpected) throw error;
      const { detail, code } = answer.body;
      res.status(answer.status).json({ jsonrpc: '2.0', id: request.id, error: { code: rpcCodeOf(code, answer.status), message: detail, data: { code } }, detail, code });
    }
  }
}
