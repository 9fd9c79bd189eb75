import { IsUUID, ValidateIf } from 'class-validator';

/** POST .../parent: the parent project, or null to make the project top-level again. The field is required. */
export class SetParentDto {
  @ValidateIf((_object, value) => value !== null)
  @IsUUID('all', { message: 'parent_id must be a UUID, or null to clear it' })
  parent_id!: string | null;
}
