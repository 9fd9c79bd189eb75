import { IntersectionType } from '@nestjs/mapped-types';
import { WorkspaceItemIdDto } from './workspace-item-id.dto';
import { UpdateWorkspaceItemDto } from './update-workspace-item.dto';

export class UpdateWorkspaceItemToolDto extends IntersectionType(WorkspaceItemIdDto, UpdateWorkspaceItemDto) {}
