import { IsUUID } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { DEVLOG_ENTRY_MAX } from '../notes.constants';
import { HumanIdRules } from './human-id.rules';

export class AddDevlogDto {
  @BodyText('entry', DEVLOG_ENTRY_MAX, { notBlank: true })
  entry!: string;

  @OptionalField()
  @HumanIdRules()
  human_id?: string;

  @OptionalField()
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id?: string;
}
