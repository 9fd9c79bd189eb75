import { IsIn } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { PageQueryDto } from '../../tasks/dto/page-query.dto';
import { INSIGHT_HORIZONS, InsightHorizon } from '../notes.constants';

export class ListInsightsQueryDto extends PageQueryDto {
  @OptionalField()
  @IsIn(INSIGHT_HORIZONS, { message: `horizon must be one of ${INSIGHT_HORIZONS.join(', ')}` })
  horizon?: InsightHorizon;
}
