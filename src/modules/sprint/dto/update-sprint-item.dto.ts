import { IsBoolean, IsIn, IsISO8601, IsOptional, IsString } from 'class-validator';
import { OptionalNotNull } from '../../../common/validation/optional-not-null.decorator';
import { BLOCKER_KINDS, BlockerKind, FAILURE_MODES, FailureMode, MILESTONE_TYPES, MilestoneType, PRIORITIES, SprintPriority } from '../sprint.constants';
import { FlagRules, ItemRefRules, LabelRules, ResourcesRules, TextRules, TitleRules } from './sprint-field.rules';

/**
 * PATCH /projects/{id}/sprint-items/{item_id}: only the fields given change;
 * null clears a nullable field. status may only be pending, todo or
 * indeterminate; an in-progress item needs force.
 */
export class UpdateSprintItemDto {
  @OptionalNotNull()
  @TitleRules()
  title?: string;

  @IsOptional()
  @TextRules('notes')
  notes?: string | null;

  @IsOptional()
  @LabelRules('group')
  group?: string | null;

  @IsOptional()
  @LabelRules('human_id')
  human_id?: string | null;

  @OptionalNotNull()
  @ResourcesRules('touches_resources')
  touches_resources?: string[];

  /** pending, todo or indeterminate; other statuses have their own routes. */
  @OptionalNotNull()
  @IsString()
  status?: string;

  @OptionalNotNull()
  @LabelRules('version')
  version?: string;

  @IsOptional()
  @ItemRefRules('depends_on')
  depends_on?: string | null;

  @OptionalNotNull()
  @IsIn(FAILURE_MODES)
  failure_mode?: FailureMode;

  @IsOptional()
  @LabelRules('track')
  track?: string | null;

  @IsOptional()
  @LabelRules('wave')
  wave?: string | null;

  @OptionalNotNull()
  @IsIn(PRIORITIES)
  priority?: SprintPriority;

  @IsOptional()
  @IsIn(BLOCKER_KINDS)
  blocker_kind?: BlockerKind | null;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'deferred_until must be an ISO 8601 timestamp' })
  deferred_until?: string | null;

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
  sprint_name?: string | null;

  /** Change an item that a session is working on (its claim is dropped when the status changes). */
  @OptionalNotNull()
  @IsBoolean()
  force?: boolean;
}
