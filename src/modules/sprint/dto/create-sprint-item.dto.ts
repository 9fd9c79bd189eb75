import { IsBoolean, IsIn, IsISO8601, IsOptional } from 'class-validator';
import { OptionalNotNull } from '../../../common/validation/optional-not-null.decorator';
import { BLOCKER_KINDS, BlockerKind, FAILURE_MODES, FailureMode, MILESTONE_TYPES, MilestoneType, PRIORITIES, SprintPriority } from '../sprint.constants';
import { FlagRules, ItemRefRules, LabelRules, ResourcesRules, TextRules, TitleRules } from './sprint-field.rules';

/**
 * A new sprint item: the REST body of POST /projects/{id}/sprint-items and
 * the arguments of add_sprint_item (with project_id), and one item of a
 * sprint-batch create.
 */
export class CreateSprintItemDto {
  @TitleRules()
  title!: string;

  /** Sprint bucket identifier, e.g. "v1.4". */
  @LabelRules('version')
  version!: string;

  /** Named group (swimlane), stored as item_group. */
  @IsOptional()
  @LabelRules('group')
  group?: string;

  /** Who added the item; default SERVICE_HUMAN_ID, then the OS user. */
  @IsOptional()
  @LabelRules('human_id')
  human_id?: string;

  /** The item (id, slug or nickname) that must finish before this one is claimable. */
  @IsOptional()
  @ItemRefRules('depends_on')
  depends_on?: string;

  @OptionalNotNull()
  @IsIn(FAILURE_MODES)
  failure_mode?: FailureMode;

  /** `<kind>:<path-or-name>` identifiers, e.g. file:src/auth/login.ts. */
  @OptionalNotNull()
  @ResourcesRules('touches_resources')
  touches_resources?: string[];

  /** Add it even when a pending or in-progress item has a near-duplicate title. */
  @OptionalNotNull()
  @IsBoolean()
  force?: boolean;

  @IsOptional()
  @LabelRules('track')
  track?: string;

  @IsOptional()
  @LabelRules('wave')
  wave?: string;

  @OptionalNotNull()
  @IsIn(PRIORITIES)
  priority?: SprintPriority;

  @IsOptional()
  @IsIn(BLOCKER_KINDS)
  blocker_kind?: BlockerKind;

  /** ISO 8601 time before which the item cannot be claimed. */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'deferred_until must be an ISO 8601 timestamp' })
  deferred_until?: string;

  @OptionalNotNull()
  @FlagRules('required_notes')
  required_notes?: number;

  @OptionalNotNull()
  @IsIn(MILESTONE_TYPES)
  milestone_type?: MilestoneType;

  @OptionalNotNull()
  @FlagRules('prospect_bypass')
  prospect_bypass?: number;

  @IsOptional()
  @LabelRules('sprint_name')
  sprint_name?: string;

  @IsOptional()
  @TextRules('notes')
  notes?: string;
}
