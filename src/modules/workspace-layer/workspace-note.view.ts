import { WorkspaceNote } from './workspace-note.entity';

export interface WorkspaceNoteView {
  id: string;
  title: string;
  body: string;
  tags: string[];
  created_at: string;
  updated_at: string;
}

export function toWorkspaceNoteView(note: WorkspaceNote): WorkspaceNoteView {
  return {
    id: note.id,
    title: note.title,
    body: note.body,
    tags: JSON.parse(note.tags) as string[],
    created_at: note.created_at.toISOString(),
    updated_at: note.updated_at.toISOString(),
  };
}
