import { ProjectNote } from './project-note.entity';

export interface ProjectNoteView {
  id: string;
  project_id: string;
  title: string;
  body: string;
  tags: string[];
  created_at: string;
  updated_at: string;
}

export function toProjectNoteView(note: ProjectNote): ProjectNoteView {
  return {
    id: note.id,
    project_id: note.project_id,
    title: note.title,
    body: note.body,
    tags: JSON.parse(note.tags) as string[],
    created_at: note.created_at.toISOString(),
    updated_at: note.updated_at.toISOString(),
  };
}
