import { IsIn } from 'class-validator';
import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { MAX_WORKFLOW_RUNS } from '../codehost.constants';
import { RefRules } from './codehost.rules';

export const WORKFLOW_RUN_STATUSES = ['queued', 'in_progress', 'completed', 'success', 'failure', 'cancelled'] as const;

/** list_workflow_runs: the newest runs, narrowed by branch and status. */
export class ListWorkflowRunsDto {
  @OptionalField()
  @RefRules('branch')
  branch?: string;

  @OptionalField()
  @IsIn(WORKFLOW_RUN_STATUSES, { message: `status must be one of ${WORKFLOW_RUN_STATUSES.join(', ')}` })
  status?: string;

  @OptionalField()
  @IntQueryParam('limit', { min: 1, max: MAX_WORKFLOW_RUNS, messages: { min: 'limit must be at least 1', max: `limit must be at most ${MAX_WORKFLOW_RUNS}` } })
  limit?: number;
}
