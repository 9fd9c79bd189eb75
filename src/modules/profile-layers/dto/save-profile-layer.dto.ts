import { ArrayMaxSize, IsArray, IsInt, IsObject, IsOptional, IsString, Max, Min } from 'class-validator';
import { OverrideReasonRules } from './override-reason.rules';

/** PUT /profile-layers/{scope_type}/{scope_id}: the scope's whole layer, replacing what it held. */
export class SaveProfileLayerDto {
  /** Every field the scope sets (executor_config nested); fields left out are inherited. */
  @IsObject({ message: 'fields must be an object' })
  fields!: Record<string, unknown>;

  /** Fields this scope puts back to Baton's default, whatever less specific layers say. */
  @IsOptional()
  @IsArray({ message: 'reset_fields must be an array of field names' })
  @ArrayMaxSize(50)
  @IsString({ each: true, message: 'each value in reset_fields must be a field name' })
  reset_fields?: string[];

  /** The revision read before editing: the save is refused with STALE_REVISION when the layer moved on. 0 for a layer that does not exist yet. */
  @IsOptional()
  @IsInt({ message: 'expected_revision must be an integer' })
  @Min(0)
  @Max(2_000_000_000)
  expected_revision?: number;

  /** Why a narrow-only dial is set looser than a less specific layer allows; recorded with the layer. */
  @IsOptional()
  @OverrideReasonRules()
  override_reason?: string;
}
