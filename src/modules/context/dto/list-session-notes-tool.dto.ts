import { IntersectionType } from '@nestjs/mapped-types';
import { SessionIdDto } from '../../sessions/dto/session-id.dto';
import { ListSessionNotesQueryDto } from './list-session-notes-query.dto';

export class ListSessionNotesToolDto extends IntersectionType(SessionIdDto, ListSessionNotesQueryDto) {}
