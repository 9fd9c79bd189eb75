import { Injectable } from '@nestjs/common';
import type { DomainError } from '../../common/errors/domain-error';
import { HitlRequest } from './hitl-request.entity';

/** What a person decided on a pending request: an answer (which may approve) or a dismissal. */
export interface HitlDecision {
  action: 'answer' | 'dismiss';
  answer: string | null;
  /** The answer approves the change the request asks about (see isApproval). */
  approves: boolean;
}

/**
 * A hook may refuse the decision: the request is then dismissed with `answer`
 * as its note and `error` is what the person is told (nothing was applied).
 */
export type HitlDecisionOutcome = void | { refuse: { error: DomainError; answer: string } };

export type HitlDecisionHook = (request: HitlRequest, decision: HitlDecision) => Promise<HitlDecisionOutcome>;

/** An answer that approves: "approve", "approved", "yes", "ok", "apply", "merge" (any case) at its start. */
export function isApproval(answer: string | null | undefined): boolean {
  return typeof answer === 'string' && /^\s*(approved?|yes|y|ok|apply|merge)\b/i.test(answer);
}

/**
 * Work that waits on a person's decision (HitlReview rows) registers here and
 * runs when that request is answered or dismissed, before the request leaves
 * `pending`: an approval applies the change, and a hook that finds the change
 * can no longer be applied refuses the decision with a clear error.
 */
@Injectable()
export class HitlDecisionHooks {
  private readonly hooks: HitlDecisionHook[] = [];

  register(hook: HitlDecisionHook): void {
    this.hooks.push(hook);
  }

  async run(request: HitlRequest, decision: HitlDecision): Promise<HitlDecisionOutcome> {
    for (const hook of this.hooks) {
      const outcome = await hook(request, decision);
      if (outcome) return outcome;
    }
  }
}
