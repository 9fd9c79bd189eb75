import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { OWNERS, PRIORITIES, SprintOwner, SprintPriority } from '../sprint.constants';
import { FlagRules, ResourcesRules, TextRules, TitleRules } from './sprint-field.rules';

/** A subtask of an item: it takes the parent's version, sprint and track. */
export class AddSubtaskDto {
  @TitleRules()
  title!: string;

  /** Who carries it out: ai (default) or human (an AI worker cannot claim a human subtask). */
  @IsOptional()
  @IsIn(OWNERS)
  owner?: SprintOwner;

  @IsOptional()
  @TextRules('notes')
  notes?: string;

  @IsOptional()
  @IsIn(PRIORITIES)
  priority?: SprintPriority;

  @IsOptional()
  @ResourcesRules('touches_resources')
  touches_resources?: string[];

  @IsOptional()
  @FlagRules('required_notes')
  required_notes?: number;

  @IsOptional()
  @FlagRules('prospect_bypass')
  prospect_bypass?: number;

  @IsOptional()
  @IsBoolean()
  force?: boolean;
}
