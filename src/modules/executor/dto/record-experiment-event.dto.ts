import { BodyText } from '../../../common/validation/body-text.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { NAME_MAX, TEXT_MAX } from '../executor.constants';

/** record_experiment_event: what happened (kind: observation, metric, note ... as the executor names it). */
export class RecordExperimentEventDto {
  @Title('kind', NAME_MAX)
  kind!: string;

  @BodyText('body', TEXT_MAX, { notBlank: true })
  body!: string;
}
