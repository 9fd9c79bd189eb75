import { IsInt, Min } from 'class-validator';
import { ReaderDto } from './reader.dto';

/** POST /projects/{id}/messages/ack: everything of this reader up to ack_through is done. */
export class AckMessagesDto extends ReaderDto {
  @IsInt({ message: 'ack_through must be an integer' })
  @Min(0)
  ack_through!: number;
}
