import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { Claimant, CLAIMANTS, LIST_LIMIT_MAX, SPRINT_STATUSES } from '../sprint.constants';
import { LabelRules } from './sprint-field.rules';

const STATUS_WORD = `(?:${[...SPRINT_STATUSES, 'active', 'terminal'].join('|')})`;
const STATUS_FILTER = new RegExp(`^${STATUS_WORD}(?:,${STATUS_WORD})*$`);
const STATUS_MESSAGE = `status must be one or more of ${[...SPRINT_STATUSES, 'active', 'terminal'].join(', ')}, separated by commas`;

/** GET /projects/{id}/sprint-items. */
export class ListSprintItemsQueryDto {
  /** One status, several separated by commas, or active / terminal. */
  @IsOptional()
  @IsString({ message: STATUS_MESSAGE })
  @Matches(STATUS_FILTER, { message: STATUS_MESSAGE })
  status?: string;

  @IsOptional()
  @LabelRules('version')
  version?: string;

  @IsOptional()
  @IntQueryParam('limit', { min: 1, max: LIST_LIMIT_MAX, messages: { integer: 'limit must be a whole number' } })
  limit?: number;

  @IsOptional()
  @IntQueryParam('offset', { min: 0, messages: { integer: 'offset must be a whole number' } })
  offset?: number;
}

/** GET /projects/{id}/resources/sprint-items: the items that declare a resource. */
export class ResourceQueryDto {
  /** `<kind>:<path-or-name>`, e.g. file:src/app.ts (file paths are normalised as file locks are). */
  @MaxLength(1100)
  @IsString()
  resource!: string;

  @IsOptional()
  @IsString({ message: STATUS_MESSAGE })
  @Matches(STATUS_FILTER, { message: STATUS_MESSAGE })
  status?: string;
}

/** GET /projects/{id}/sprint/pending_count. */
export class PendingCountQueryDto {
  @IsOptional()
  @LabelRules('version')
  version?: string;
}

/** GET /projects/{id}/sprint/test_coverage_expected: for one session's items, or every in-progress item. */
export class TestCoverageQueryDto {
  @IsOptional()
  @Uuid()
  session_id?: string;
}

/** GET /projects/{id}/reconcile. */
export class ReconcileQueryDto {
  /** Recent commits to read (default 50). */
  @IsOptional()
  @IntQueryParam('limit', { min: 1, max: 500, messages: { integer: 'limit must be a whole number' } })
  limit?: number;
}

/** GET /projects/{id}/sprint/gates: why each waiting item is not claimable, for an ai (default) or a human claimant. */
export class SprintGatesQueryDto {
  @IsOptional()
  @IsIn(CLAIMANTS, { message: `claimant must be one of ${CLAIMANTS.join(', ')}` })
  claimant?: Claimant;
}
