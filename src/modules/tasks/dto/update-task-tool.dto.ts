import { IntersectionType } from '@nestjs/mapped-types';
import { TaskIdDto } from './task-id.dto';
import { UpdateTaskDto } from './update-task.dto';

export class UpdateTaskToolDto extends IntersectionType(TaskIdDto, UpdateTaskDto) {}
