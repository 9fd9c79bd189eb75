import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum WorkspaceLayerErrorCode {
  NoteNotFound = 'WORKSPACE_NOTE_NOT_FOUND',
  DecisionNotFound = 'WORKSPACE_DECISION_NOT_FOUND',
  DecisionNotActive = 'WORKSPACE_DECISION_NOT_ACTIVE',
  ItemNotFound = 'WORKSPACE_ITEM_NOT_FOUND',
  BlogWriterRequired = 'BLOG_WRITER_REQUIRED',
}

const STATUS: StatusTable<WorkspaceLayerErrorCode> = {
  [WorkspaceLayerErrorCode.NoteNotFound]: HttpStatus.NOT_FOUND,
  [WorkspaceLayerErrorCode.DecisionNotFound]: HttpStatus.NOT_FOUND,
  [WorkspaceLayerErrorCode.ItemNotFound]: HttpStatus.NOT_FOUND,
  [WorkspaceLayerErrorCode.DecisionNotActive]: HttpStatus.CONFLICT,
  [WorkspaceLayerErrorCode.BlogWriterRequired]: HttpStatus.FORBIDDEN,
};

export class WorkspaceLayerError extends DomainErrorOf(STATUS) {
  static blogWriterRequired(role?: string) {
    const who = role ? `a ${role}` : 'a credential that names no member of this workspace';
    return new WorkspaceLayerError(
      WorkspaceLayerErrorCode.BlogWriterRequired,
      `the workspace blog is written by its owners and admins, not by ${who} (sign in, or use an API token an owner or admin made)`,
    );
  }

  static noteNotFound(id: string) {
    return new WorkspaceLayerError(WorkspaceLayerErrorCode.NoteNotFound, `workspace note not found: ${id}`);
  }

  static decisionNotFound(id: string) {
    return new WorkspaceLayerError(WorkspaceLayerErrorCode.DecisionNotFound, `workspace decision not found: ${id}`);
  }

  static decisionNotActive(id: string) {
    return new WorkspaceLayerError(WorkspaceLayerErrorCode.DecisionNotActive, `workspace decision ${id} is already superseded: supersede its successor`);
  }

  static itemNotFound(id: string) {
    return new WorkspaceLayerError(WorkspaceLayerErrorCode.ItemNotFound, `workspace sprint item not found: ${id}`);
  }
}
