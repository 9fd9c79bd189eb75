import { BoardReadCache } from '../push/board-read-cache.service';
import { EntityManager } from 'typeorm';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { CreateNoteDto } from '../notes/dto/create-note.dto';
import { UpdateNoteDto } from '../notes/dto/update-note.dto';
import { filterNotes } from '../notes/note-filters.util';
import { ProjectNoteView, toProjectNoteView } from '../notes/project-note.view';
import { KnowledgeEvents } from '../notes/knowledge-events.service';
import { ProjectNotesService } from '../notes/project-notes.service';
import { requireProject } from '../projects/require-project.util';
import { DEFAULT_PAGE_SIZE } from '../tasks/dto/page-query.dto';
import { ListWorkspaceNotesQueryDto } from './dto/list-workspace-notes-query.dto';
import { WorkspaceNote } from './workspace-note.entity';
import { toWorkspaceNoteView, WorkspaceNoteView } from './workspace-note.view';
import { WorkspaceLayerError } from './workspace-layer.errors';

/** Notes of the whole workspace: they head every project's context block. */
@Injectable()
export class WorkspaceNotesService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly projectNotes: ProjectNotesService,
    private readonly knowledge: KnowledgeEvents,
    private readonly board: BoardReadCache,
  ) {}

  /** A write of what every project's context block shows first: the board-read cache drops it. */
  private async write<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.db.transaction(work);
    this.board.changed();
    return result;
  }

  async list(query: ListWorkspaceNotesQueryDto): Promise<WorkspaceNoteView[]> {
    const notes = await this.db.transaction((m) =>
      filterNotes(m.createQueryBuilder(WorkspaceNote, 'n'), 'n', { tag: query.tag, text: query.substring })
        .orderBy('n.created_at', 'DESC')
        .addOrderBy('n.id', 'DESC')
        .take(query.limit ?? DEFAULT_PAGE_SIZE)
        .skip(query.offset ?? 0)
        .getMany(),
    );
    return notes.map(toWorkspaceNoteView);
  }

  async create(input: CreateNoteDto): Promise<WorkspaceNoteView> {
    const now = this.clock.now();
    const note: WorkspaceNote = { id: randomUUID(), title: input.title, body: input.body ?? '', tags: JSON.stringify(input.tags ?? []), created_at: now, updated_at: now };
    await this.write((m) => m.insert(WorkspaceNote, note));
    return toWorkspaceNoteView(note);
  }

  async update(id: string, input: UpdateNoteDto): Promise<WorkspaceNoteView> {
    if (input.title === undefined && input.body === undefined && input.tags === undefined) {
      throw RequestError.invalidInput('give title, body and/or tags to change');
    }
    return this.write(async (m) => {
      const note = await m.findOneBy(WorkspaceNote, { id });
      if (!note) throw WorkspaceLayerError.noteNotFound(id);
      if (input.title !== undefined) note.title = input.title;
      if (input.body !== undefined) note.body = input.body;
      if (input.tags !== undefined) note.tags = JSON.stringify(input.tags);
      note.updated_at = this.clock.now();
      await m.update(WorkspaceNote, { id }, { title: note.title, body: note.body, tags: note.tags, updated_at: note.updated_at });
      return toWorkspaceNoteView(note);
    });
  }

  async remove(id: string): Promise<void> {
    const result = await this.write((m) => m.delete(WorkspaceNote, { id }));
    if (!result.affected) throw WorkspaceLayerError.noteNotFound(id);
  }

  /** Turns a workspace note into a note of one project (same title, body and tags), in one transaction; the project's open views hear of it. */
  async moveToProject(id: string, projectId: string): Promise<ProjectNoteView> {
    const moving = this.write(async (m) => {
      const note = await m.findOneBy(WorkspaceNote, { id });
      if (!note) throw WorkspaceLayerError.noteNotFound(id);
      await requireProject(m, projectId);
      const moved = await this.projectNotes.insert(m, projectId, { title: note.title, body: note.body, tags: JSON.parse(note.tags) as string[] });
      await m.delete(WorkspaceNote, { id });
      return toProjectNoteView(moved);
    });
    return this.knowledge.after(projectId, 'notes', moving);
  }
}
