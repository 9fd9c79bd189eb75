import { QUEUED_GOAL_MAX } from '../handoff.constants';
import { FreeTextRules } from './free-text.rules';

export class QueueSessionDto {
  /** The goal of the project's next session; replaces a goal queued earlier. */
  @FreeTextRules('goal', QUEUED_GOAL_MAX)
  goal!: string;
}
