import { IsNumber, IsOptional, Max, Min } from 'class-validator';

/** `?wait=<seconds>`: return as soon as the request is no longer pending, or after this long (capped by SERVICE_MAX_WAIT_SECONDS). */
export class WaitQueryDto {
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'wait must be a number of seconds' })
  @Min(0)
  @Max(3600)
  wait?: number;
}
