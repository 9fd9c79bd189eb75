import { IsBoolean, IsIn } from 'class-validator';
import { OptionalNotNull } from '../../../common/validation/optional-not-null.decorator';
import { OWNERS, PRIORITIES, SprintOwner, SprintPriority } from '../sprint.constants';
import { FlagRules, ResourcesRules, TextRules, TitleRules } from './sprint-field.rules';

/** A subtask of an item: it takes the parent's version, sprint and track. */
export class AddSubtaskDto {
  @TitleRules()
  title!: string;

  /** Who carries it out: ai (default) or human (an AI worker cannot claim a human subtask). */
  @OptionalNotNull()
  @IsIn(OWNERS)
  owner?: SprintOwner;

  @OptionalNotNull()
  @TextRules('notes')
  notes?: string;

  @OptionalNotNull()
  @IsIn(PRIORITIES)
  priority?: SprintPriority;

  @OptionalNotNull()
  @ResourcesRules('touches_resources')
  touches_resources?: string[];

  @OptionalNotNull()
  @FlagRules('required_notes')
  required_notes?: number;

  @OptionalNotNull()
  @FlagRules('prospect_bypass')
  prospect_bypass?: number;

  @OptionalNotNull()
  @IsBoolean()
  force?: boolean;
}
