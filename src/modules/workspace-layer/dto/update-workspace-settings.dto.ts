import { IsInt, IsOptional, IsTimeZone, Max, Min } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { Trim } from '../../../common/validation/trim.transform';

/** PATCH /workspace/settings: only the fields given change. */
export class UpdateWorkspaceSettingsDto {
  /** null clears the name. */
  @IsOptional()
  @Title('name', 100)
  name?: string | null;

  @OptionalField()
  @Trim()
  @IsTimeZone({ message: 'timezone must be an IANA time zone name such as Europe/Paris' })
  timezone?: string;

  @OptionalField()
  @Min(0, { message: 'context_notes_limit must be at least 0' })
  @Max(50, { message: 'context_notes_limit must be at most 50' })
  @IsInt({ message: 'context_notes_limit must be an integer' })
  context_notes_limit?: number;

  @OptionalField()
  @Min(0, { message: 'context_decisions_limit must be at least 0' })
  @Max(50, { message: 'context_decisions_limit must be at most 50' })
  @IsInt({ message: 'context_decisions_limit must be an integer' })
  context_decisions_limit?: number;
}
