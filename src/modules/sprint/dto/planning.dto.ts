import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { TRACK_STATES, TrackState } from '../sprint.constants';
import { LabelRules } from './sprint-field.rules';

/** POST .../prospect: concrete locations a planner found for the item (`path[:line][#symbol]`). */
export class ProspectSprintItemDto {
  // class-validator reports the rule declared last first: the array and type checks come last.
  @NoControlChars('locations', { each: true })
  @MaxLength(1024, { each: true })
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @ArrayMaxSize(100)
  @ArrayMinSize(1)
  @IsArray()
  locations!: string[];
}

/** POST /projects/{id}/sprint/assign-waves: the version to plan (default: every version). */
export class AssignWavesDto {
  @IsOptional()
  @LabelRules('version')
  version?: string;
}

/** `{project_id}/sprint-tracks/{track}`. */
export class SprintTrackRefDto extends ProjectIdDto {
  @LabelRules('track')
  track!: string;
}

export class SetTrackStateDto {
  /** active hands the track's items out again; deferred and skipped keep them from being claimed. */
  @IsIn(TRACK_STATES)
  state!: TrackState;
}

const WAVE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** `{project_id}/wave-summary/{wave_id}`. */
export class WaveIdDto extends ProjectIdDto {
  @IsString()
  @Matches(WAVE_ID, { message: 'wave_id must be a wave label such as wave-1' })
  wave_id!: string;
}
