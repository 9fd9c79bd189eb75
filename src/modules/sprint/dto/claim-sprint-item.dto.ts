import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { Claimant, CLAIMANTS } from '../sprint.constants';

/** Who claims: a live session of the project, as an AI worker (default) or as a person. */
export class ClaimSprintItemDto {
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id!: string;

  /** ai (default) or human; a worker session always claims as ai. Milestone and human items need human. */
  @IsOptional()
  @IsIn(CLAIMANTS)
  claimant?: Claimant;
}

/** POST .../release: gives the item back, only if this session holds it. */
export class ReleaseSprintItemDto {
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id!: string;
}
