import { IntersectionType } from '@nestjs/mapped-types';
import { HostedDefaultIdDto } from './hosted-default-id.dto';
import { RevisionsQueryDto } from './revisions-query.dto';

export class RevisionsToolDto extends IntersectionType(HostedDefaultIdDto, RevisionsQueryDto) {}
