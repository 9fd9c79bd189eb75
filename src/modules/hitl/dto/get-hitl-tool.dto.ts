import { IntersectionType } from '@nestjs/mapped-types';
import { HitlIdDto } from './hitl-id.dto';
import { WaitQueryDto } from './wait-query.dto';

export class GetHitlToolDto extends IntersectionType(HitlIdDto, WaitQueryDto) {}
