import { IsOptional } from 'class-validator';
import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';
import { CONTROL_PLANE_LIMIT_MAX } from '../control-plane.constants';

/** The page of a control-plane view: `limit` (default 50, at most 200) and `offset`. */
export class ControlPlanePageDto {
  @IsOptional()
  @IntQueryParam('limit', { min: 1, max: CONTROL_PLANE_LIMIT_MAX })
  limit?: number;

  @IsOptional()
  @IntQueryParam('offset', { min: 0, max: 1_000_000 })
  offset?: number;
}
