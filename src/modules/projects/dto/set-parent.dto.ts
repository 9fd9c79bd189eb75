import { IsUUID } from 'class-validator';
import { RequiredOrNull } from '../../../common/validation/required-or-null.decorator';

/** POST .../parent: the parent project, or null to make the project top-level again. The field is required. */
export class SetParentDto {
  @RequiredOrNull()
  @IsUUID('all', { message: 'parent_id must be a UUID, or null to clear it' })
  parent_id!: string | null;
}
