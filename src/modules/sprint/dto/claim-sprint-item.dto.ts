import { IsIn, IsOptional } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { Claimant, CLAIMANTS } from '../sprint.constants';

/** Who claims: a live session of the project, as an AI worker (default) or as a person. */
export class ClaimSprintItemDto {
  @Uuid()
  session_id!: string;

  /** ai (default) or human; a worker session always claims as ai. Milestone and human items need human. */
  @IsOptional()
  @IsIn(CLAIMANTS)
  claimant?: Claimant;
}

/** POST .../release: gives the item back, only if this session holds it. */
export class ReleaseSprintItemDto {
  @Uuid()
  session_id!: string;
}
