import { IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { ReaderDto } from './reader.dto';

/** POST /projects/{id}/messages/receive. */
export class ReceiveMessagesDto extends ReaderDto {
  /** Acknowledge every message of this reader up to this seq first (they never come again). */
  @IsOptional()
  @IsInt({ message: 'ack_through must be an integer' })
  @Min(0)
  ack_through?: number;

  /** Wait up to this many seconds (capped by SERVICE_MAX_WAIT_SECONDS) for a message when none is waiting. */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'wait_seconds must be a number' })
  @Min(0)
  @Max(3600)
  wait_seconds?: number;

  /** At most this many messages (default 50, at most 500). */
  @IsOptional()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(500)
  limit?: number;
}
