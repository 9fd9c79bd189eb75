import { IntersectionType } from '@nestjs/mapped-types';
import { WorkspaceItemIdDto } from './workspace-item-id.dto';
import { CompleteWorkspaceItemDto } from './complete-workspace-item.dto';

export class CompleteWorkspaceItemToolDto extends IntersectionType(WorkspaceItemIdDto, CompleteWorkspaceItemDto) {}
