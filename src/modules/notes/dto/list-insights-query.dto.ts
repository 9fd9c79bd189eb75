import { IsIn } from 'class-validator';
import { PageQueryDto } from '../../tasks/dto/page-query.dto';
import { INSIGHT_HORIZONS, InsightHorizon } from '../notes.constants';
import { OptionalField } from '../../tasks/dto/field.rules';

export class ListInsightsQueryDto extends PageQueryDto {
  @OptionalField()
  @IsIn(INSIGHT_HORIZONS, { message: `horizon must be one of ${INSIGHT_HORIZONS.join(', ')}` })
  horizon?: InsightHorizon;
}
