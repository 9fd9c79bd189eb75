import { IntersectionType } from '@nestjs/mapped-types';
import { DecisionIdParamsDto } from './decision-id-params.dto';
import { UpdatePinnedDecisionDto } from './update-pinned-decision.dto';

export class UpdatePinnedDecisionToolDto extends IntersectionType(DecisionIdParamsDto, UpdatePinnedDecisionDto) {}
