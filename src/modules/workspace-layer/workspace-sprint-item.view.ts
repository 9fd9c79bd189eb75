import { WorkspaceItemStatus } from './workspace-layer.constants';
import { WorkspaceSprintItem } from './workspace-sprint-item.entity';

export interface WorkspaceSprintItemView {
  id: string;
  title: string;
  status: WorkspaceItemStatus;
  item_group: string | null;
  notes: string | null;
  human_id: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export function toWorkspaceSprintItemView(item: WorkspaceSprintItem): WorkspaceSprintItemView {
  return {
    ...item,
    created_at: item.created_at.toISOString(),
    updated_at: item.updated_at.toISOString(),
    completed_at: item.completed_at ? item.completed_at.toISOString() : null,
  };
}
