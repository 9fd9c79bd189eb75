import { IntersectionType } from '@nestjs/mapped-types';
import { OptionalNotNull } from '../../../common/validation/optional-not-null.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ScopeIdRules } from './scope-id.rules';

/** GET /projects/{project_id}/effective-profile?session_id=&user_id= (each may be left out, neither may be null: it would reach the layer lookup). */
export class EffectiveProfileOptionsDto {
  /** Resolve for this session: its layer and its person's layer take part, and restart needs are reported against its start. */
  @OptionalNotNull()
  @Uuid()
  session_id?: string;

  /** Resolve for this person (a human id) without a session. */
  @OptionalNotNull()
  @ScopeIdRules('user_id')
  user_id?: string;
}

/** The project and the options: the get_effective_profile tool's arguments. */
export class EffectiveProfileQueryDto extends IntersectionType(ProjectIdDto, EffectiveProfileOptionsDto) {}
