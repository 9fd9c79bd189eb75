import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';
import { PinnedDecisionStatus } from './notes.constants';

export enum NoteErrorCode {
  NoteNotFound = 'NOTE_NOT_FOUND',
  DecisionNotFound = 'DECISION_NOT_FOUND',
  DecisionNotActive = 'DECISION_NOT_ACTIVE',
  PinnedLimitReached = 'PINNED_LIMIT_REACHED',
  ConsolidationNotConfigured = 'CONSOLIDATION_NOT_CONFIGURED',
  ConsolidationFailed = 'CONSOLIDATION_FAILED',
  ConsolidationStale = 'CONSOLIDATION_STALE',
}

const STATUS: StatusTable<NoteErrorCode> = {
  [NoteErrorCode.NoteNotFound]: HttpStatus.NOT_FOUND,
  [NoteErrorCode.DecisionNotFound]: HttpStatus.NOT_FOUND,
  [NoteErrorCode.DecisionNotActive]: HttpStatus.CONFLICT,
  [NoteErrorCode.PinnedLimitReached]: HttpStatus.CONFLICT,
  // A 4xx: the request is sound, this installation lacks what it needs (and Baton answers no 5xx to a sound request).
  [NoteErrorCode.ConsolidationNotConfigured]: HttpStatus.CONFLICT,
  [NoteErrorCode.ConsolidationFailed]: HttpStatus.BAD_GATEWAY,
  [NoteErrorCode.ConsolidationStale]: HttpStatus.CONFLICT,
};

/** Refusals of project notes, insights, the decision log, the devlog and pinned decisions. */
export class NoteError extends DomainErrorOf(STATUS) {
  static noteNotFound(id: string) {
    return new NoteError(NoteErrorCode.NoteNotFound, `note not found: ${id}`);
  }

  static decisionNotFound(id: string) {
    return new NoteError(NoteErrorCode.DecisionNotFound, `pinned decision not found: ${id}`);
  }

  static decisionNotActive(id: string, status: PinnedDecisionStatus) {
    return new NoteError(NoteErrorCode.DecisionNotActive, `pinned decision ${id} is ${status}: only an active decision can be edited or superseded`, { status });
  }

  static pinnedLimitReached(limit: number, oldestId: string | null, asked?: number) {
    const detail =
      asked === undefined
        ? `the project already has ${limit} active pinned decisions (max_pinned_decisions): archive one (POST .../decisions-pinned/archive-oldest), supersede one, or raise the setting`
        : `${asked} decisions are more than max_pinned_decisions (${limit})`;
    return new NoteError(NoteErrorCode.PinnedLimitReached, detail, { max_pinned_decisions: limit, oldest_active_id: oldestId });
  }

  static consolidationNotConfigured() {
    return new NoteError(
      NoteErrorCode.ConsolidationNotConfigured,
      'decision consolidation is not configured: it needs a model provider (set SERVICE_LLM_URL, and SERVICE_LLM_API_KEY if it asks for one)',
    );
  }

  static consolidationFailed(why: string) {
    return new NoteError(NoteErrorCode.ConsolidationFailed, `decision consolidation failed, nothing was changed: ${why}`);
  }

  static consolidationStale() {
    return new NoteError(NoteErrorCode.ConsolidationStale, 'the decision log changed while the model was working (another consolidation?): nothing was changed, try again');
  }
}
