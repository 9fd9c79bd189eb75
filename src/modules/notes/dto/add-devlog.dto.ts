import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { DEVLOG_ENTRY_MAX } from '../notes.constants';
import { HumanIdRules } from './human-id.rules';

export class AddDevlogDto {
  @BodyText('entry', DEVLOG_ENTRY_MAX, { notBlank: true })
  entry!: string;

  @OptionalField()
  @HumanIdRules()
  human_id?: string;

  @OptionalField()
  @Uuid()
  session_id?: string;
}
