import { IsBoolean, IsIn, ValidateIf } from 'class-validator';
import { OWNERS, PRIORITIES, SprintOwner, SprintPriority } from '../sprint.constants';
import { FlagRules, ResourcesRules, TextRules, TitleRules } from './sprint-field.rules';

/** Optional, but null is not a value. */
const given = (_: object, value: unknown) => value !== undefined;

/** A subtask of an item: it takes the parent's version, sprint and track. */
export class AddSubtaskDto {
  @TitleRules()
  title!: string;

  /** Who carries it out: ai (default) or human (an AI worker cannot claim a human subtask). */
  @ValidateIf(given)
  @IsIn(OWNERS)
  owner?: SprintOwner;

  @ValidateIf(given)
  @TextRules('notes')
  notes?: string;

  @ValidateIf(given)
  @IsIn(PRIORITIES)
  priority?: SprintPriority;

  @ValidateIf(given)
  @ResourcesRules('touches_resources')
  touches_resources?: string[];

  @ValidateIf(given)
  @FlagRules('required_notes')
  required_notes?: number;

  @ValidateIf(given)
  @FlagRules('prospect_bypass')
  prospect_bypass?: number;

  @ValidateIf(given)
  @IsBoolean()
  force?: boolean;
}
