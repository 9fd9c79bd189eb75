import { IntersectionType } from '@nestjs/mapped-types';
import { IsOptional } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ScopeIdRules } from './scope-id.rules';

/** GET /projects/{project_id}/effective-profile?session_id=&user_id= */
export class EffectiveProfileOptionsDto {
  /** Resolve for this session: its layer and its person's layer take part, and restart needs are reported against its start. */
  @IsOptional()
  @Uuid()
  session_id?: string;

  /** Resolve for this person (a human id) without a session. */
  @IsOptional()
  @ScopeIdRules('user_id')
  user_id?: string;
}

/** The project and the options: the get_effective_profile tool's arguments. */
export class EffectiveProfileQueryDto extends IntersectionType(ProjectIdDto, EffectiveProfileOptionsDto) {}
