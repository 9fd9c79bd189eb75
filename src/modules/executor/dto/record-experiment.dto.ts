import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { NAME_MAX, TEXT_MAX } from '../executor.constants';

/** record_experiment: a new experiment, running. */
export class RecordExperimentDto {
  @Title('name', NAME_MAX)
  name!: string;

  @OptionalField()
  @BodyText('hypothesis', TEXT_MAX)
  hypothesis?: string;
}
