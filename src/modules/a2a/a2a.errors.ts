import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';
import { A2aTaskState } from './a2a.constants';

export enum A2aErrorCode {
  AgentNotFound = 'A2A_AGENT_NOT_FOUND',
  TaskNotFound = 'A2A_TASK_NOT_FOUND',
  BadMessage = 'A2A_BAD_MESSAGE',
  TaskClosed = 'A2A_TASK_CLOSED',
}

const STATUS: StatusTable<A2aErrorCode> = {
  [A2aErrorCode.AgentNotFound]: HttpStatus.NOT_FOUND,
  [A2aErrorCode.TaskNotFound]: HttpStatus.NOT_FOUND,
  [A2aErrorCode.BadMessage]: HttpStatus.BAD_REQUEST,
  [A2aErrorCode.TaskClosed]: HttpStatus.CONFLICT,
};

export class A2aError extends DomainErrorOf(STATUS) {
  /** The agent is a project: an unknown id and another workspace's project answer alike. */
  static agentNotFound(id: string) {
    return new A2aError(A2aErrorCode.AgentNotFound, `agent not found: ${id} (an agent_id is the id of a project of this workspace)`);
  }

  static taskNotFound(id: string) {
    return new A2aError(A2aErrorCode.TaskNotFound, `A2A task not found: ${id}`);
  }

  static badMessage(detail: string) {
    return new A2aError(A2aErrorCode.BadMessage, detail);
  }

  static closed(id: string, state: A2aTaskState) {
    return new A2aError(A2aErrorCode.TaskClosed, `A2A task ${id} is ${state}: a finished task does not change any more`, { state });
  }
}
