import { assertUnreachable, DomainError } from '../../common/errors/domain-error';
import { PinnedDecisionStatus } from './notes.constants';

export enum NoteErrorCode {
  NoteNotFound = 'NOTE_NOT_FOUND',
  DecisionNotFound = 'DECISION_NOT_FOUND',
  DecisionNotActive = 'DECISION_NOT_ACTIVE',
  PinnedLimitReached = 'PINNED_LIMIT_REACHED',
}

/** Refusals of project notes, insights, the decision log, the devlog and pinned decisions. */
export class NoteError extends DomainError<NoteErrorCode> {
  private fields?: Record<string, unknown>;

  static noteNotFound(id: string) {
    return new NoteError(NoteErrorCode.NoteNotFound, `note not found: ${id}`);
  }

  static decisionNotFound(id: string) {
    return new NoteError(NoteErrorCode.DecisionNotFound, `pinned decision not found: ${id}`);
  }

  static decisionNotActive(id: string, status: PinnedDecisionStatus) {
    const error = new NoteError(NoteErrorCode.DecisionNotActive, `pinned decision ${id} is ${status}: only an active decision can be edited or superseded`);
    error.fields = { status };
    return error;
  }

  static pinnedLimitReached(limit: number, oldestId: string | null, asked?: number) {
    const detail =
      asked === undefined
        ? `the project already has ${limit} active pinned decisions (max_pinned_decisions): archive one (POST .../decisions-pinned/archive-oldest), supersede one, or raise the setting`
        : `${asked} decisions are more than max_pinned_decisions (${limit})`;
    const error = new NoteError(NoteErrorCode.PinnedLimitReached, detail);
    error.fields = { max_pinned_decisions: limit, oldest_active_id: oldestId };
    return error;
  }

  override get extra() {
    return this.fields;
  }

  get httpStatus(): number {
    switch (this.code) {
      case NoteErrorCode.NoteNotFound:
      case NoteErrorCode.DecisionNotFound:
        return 404;
      case NoteErrorCode.DecisionNotActive:
      case NoteErrorCode.PinnedLimitReached:
        return 409;
      default:
        return assertUnreachable(this.code);
    }
  }
}
