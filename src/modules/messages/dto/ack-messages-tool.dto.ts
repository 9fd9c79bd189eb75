import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { AckMessagesDto } from './ack-messages.dto';

export class AckMessagesToolDto extends IntersectionType(ProjectIdDto, AckMessagesDto) {}
