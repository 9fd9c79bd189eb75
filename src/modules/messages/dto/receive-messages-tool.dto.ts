import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ReceiveMessagesDto } from './receive-messages.dto';

export class ReceiveMessagesToolDto extends IntersectionType(ProjectIdDto, ReceiveMessagesDto) {}
