import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum WorkspaceLayerErrorCode {
  NoteNotFound = 'WORKSPACE_NOTE_NOT_FOUND',
  DecisionNotFound = 'WORKSPACE_DECISION_NOT_FOUND',
  DecisionNotActive = 'WORKSPACE_DECISION_NOT_ACTIVE',
  ItemNotFound = 'WORKSPACE_ITEM_NOT_FOUND',
}

export class WorkspaceLayerError extends DomainError<WorkspaceLayerErrorCode> {
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

  get httpStatus(): number {
    switch (this.code) {
      case WorkspaceLayerErrorCode.NoteNotFound:
      case WorkspaceLayerErrorCode.DecisionNotFound:
      case WorkspaceLayerErrorCode.ItemNotFound:
        return 404;
      case WorkspaceLayerErrorCode.DecisionNotActive:
        return 409;
      default:
        return assertUnreachable(this.code);
    }
  }
}
