import { IntersectionType } from '@nestjs/mapped-types';
import { SessionIdDto } from './session-id.dto';
import { UpdateSessionDto } from './update-session.dto';

export class UpdateSessionToolDto extends IntersectionType(SessionIdDto, UpdateSessionDto) {}
