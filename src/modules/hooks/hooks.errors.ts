import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum HookErrorCode {
  ProjectNotNamed = 'HOOK_PROJECT_NOT_NAMED',
  SessionNotNamed = 'HOOK_SESSION_NOT_NAMED',
  UnknownAssistantSession = 'HOOK_SESSION_UNKNOWN',
  WrongEvent = 'HOOK_WRONG_EVENT',
}

const STATUS: StatusTable<HookErrorCode> = {
  [HookErrorCode.ProjectNotNamed]: HttpStatus.BAD_REQUEST,
  [HookErrorCode.SessionNotNamed]: HttpStatus.BAD_REQUEST,
  [HookErrorCode.UnknownAssistantSession]: HttpStatus.NOT_FOUND,
  [HookErrorCode.WrongEvent]: HttpStatus.BAD_REQUEST,
};

export class HookError extends DomainErrorOf(STATUS) {
  static projectNotNamed() {
    return new HookError(HookErrorCode.ProjectNotNamed, 'the hook names no project: add ?project=<name> or ?project_id=<id> to the hook URL, or send the hook input with cwd');
  }

  static sessionNotNamed() {
    return new HookError(HookErrorCode.SessionNotNamed, 'the hook names no session: send the hook input (with session_id) or add ?baton_session_id=<id> to the hook URL');
  }

  static unknownAssistantSession(assistantSessionId: string) {
    return new HookError(
      HookErrorCode.UnknownAssistantSession,
      `no Baton session was started for assistant session ${assistantSessionId} (its SessionStart hook did not reach Baton)`,
    );
  }

  static wrongEvent(route: string, event: string, expected: string[]) {
    return new HookError(HookErrorCode.WrongEvent, `${route} takes ${expected.join(' or ')} hook input, not ${event}`);
  }
}
