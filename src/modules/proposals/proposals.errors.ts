import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';
import { ProposalStatus } from './proposals.constants';

export enum ProposalErrorCode {
  NotFound = 'PROPOSAL_NOT_FOUND',
  BadTransition = 'PROPOSAL_BAD_TRANSITION',
  NotReviewable = 'PROPOSAL_NOT_REVIEWABLE',
}

const STATUS: StatusTable<ProposalErrorCode> = {
  [ProposalErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [ProposalErrorCode.BadTransition]: HttpStatus.CONFLICT,
  [ProposalErrorCode.NotReviewable]: HttpStatus.CONFLICT,
};

export class ProposalError extends DomainErrorOf(STATUS) {
  static notFound(id: string) {
    return new ProposalError(ProposalErrorCode.NotFound, `workspace proposal not found: ${id}`);
  }

  static badTransition(status: ProposalStatus, direction: 'forward' | 'back') {
    const why =
      status === 'promoted'
        ? 'a promoted proposal is final'
        : direction === 'forward'
          ? `${status} is the end of the review chain (raw → investigating → rejected); move it back, or promote it from raw or investigating`
          : `${status} is the start of the review chain; advance it instead`;
    return new ProposalError(ProposalErrorCode.BadTransition, `cannot move a ${status} proposal ${direction}: ${why}`, { status });
  }

  static notReviewable(status: ProposalStatus) {
    const why = status === 'promoted' ? 'it is already promoted' : 'a rejected proposal is moved back to investigating before it can be promoted';
    return new ProposalError(ProposalErrorCode.NotReviewable, `cannot promote a ${status} proposal: ${why}`, { status });
  }
}
