import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { SendMessageDto } from './send-message.dto';

export class SendMessageToolDto extends IntersectionType(ProjectIdDto, SendMessageDto) {}
