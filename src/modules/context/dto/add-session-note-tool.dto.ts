import { IntersectionType } from '@nestjs/mapped-types';
import { SessionIdDto } from '../../sessions/dto/session-id.dto';
import { AddSessionNoteDto } from './add-session-note.dto';

export class AddSessionNoteToolDto extends IntersectionType(SessionIdDto, AddSessionNoteDto) {}
