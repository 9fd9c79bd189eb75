import { ProjectFile } from './project-file.entity';

export interface ProjectFileView {
  filename: string;
  content: string;
  /** UTF-8 bytes. */
  size: number;
  created_at: string;
  updated_at: string;
}

export function toProjectFileView(file: ProjectFile): ProjectFileView {
  return {
    filename: file.filename,
    content: file.content,
    size: Buffer.byteLength(file.content),
    created_at: file.created_at.toISOString(),
    updated_at: file.updated_at.toISOString(),
  };
}
