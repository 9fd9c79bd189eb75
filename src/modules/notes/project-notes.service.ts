import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { requireProject } from '../projects/require-project.util';
import { DEFAULT_PAGE_SIZE } from '../tasks/dto/page-query.dto';
import { CreateNoteDto } from './dto/create-note.dto';
import { ListNotesQueryDto } from './dto/list-notes-query.dto';
import { UpdateNoteDto } from './dto/update-note.dto';
import { filterNotes } from './note-filters.util';
import { ProjectNote } from './project-note.entity';
import { ProjectNoteView, toProjectNoteView } from './project-note.view';
import { NoteError } from './notes.errors';
import { KnowledgeEvents } from './knowledge-events.service';

/** A project's notes. A note id of another project (or tenant) answers the same 404 as a missing one. */
@Injectable()
export class ProjectNotesService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly knowledge: KnowledgeEvents,
  ) {}

  /** Newest first, narrowed by tag and/or substring. */
  async list(projectId: string, query: ListNotesQueryDto): Promise<ProjectNoteView[]> {
    const notes = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const qb = m.createQueryBuilder(ProjectNote, 'n').where('n.project_id = :projectId', { projectId });
      return filterNotes(qb, 'n', { tag: query.tag, text: query.query })
        .orderBy('n.created_at', 'DESC')
        .addOrderBy('n.id', 'DESC')
        .take(query.limit ?? DEFAULT_PAGE_SIZE)
        .skip(query.offset ?? 0)
        .getMany();
    });
    return notes.map(toProjectNoteView);
  }

  async create(projectId: string, input: CreateNoteDto): Promise<ProjectNoteView> {
    return this.knowledge.after(
      projectId,
      'notes',
      this.db.transaction(async (m) => {
        await requireProject(m, projectId);
        return toProjectNoteView(await this.insert(m, projectId, input));
      }),
    );
  }

  /** Adds a note inside a caller's transaction (moving a workspace note into a project uses it). */
  async insert(m: EntityManager, projectId: string, input: { title: string; body?: string; tags?: string[] }): Promise<ProjectNote> {
    const now = this.clock.now();
    const note: ProjectNote = {
      id: randomUUID(),
      project_id: projectId,
      title: input.title,
      body: input.body ?? '',
      tags: JSON.stringify(input.tags ?? []),
      created_at: now,
      updated_at: now,
    };
    await m.insert(ProjectNote, note);
    return note;
  }

  async update(projectId: string, noteId: string, input: UpdateNoteDto): Promise<ProjectNoteView> {
    if (input.title === undefined && input.body === undefined && input.tags === undefined) {
      throw RequestError.invalidInput('give title, body and/or tags to change');
    }
    return this.knowledge.after(
      projectId,
      'notes',
      this.db.transaction(async (m) => {
        await requireProject(m, projectId);
        const note = await m.findOneBy(ProjectNote, { id: noteId, project_id: projectId });
        if (!note) throw NoteError.noteNotFound(noteId);
        if (input.title !== undefined) note.title = input.title;
        if (input.body !== undefined) note.body = input.body;
        if (input.tags !== undefined) note.tags = JSON.stringify(input.tags);
        note.updated_at = this.clock.now();
        await m.update(ProjectNote, { id: noteId }, { title: note.title, body: note.body, tags: note.tags, updated_at: note.updated_at });
        return toProjectNoteView(note);
      }),
    );
  }

  async remove(projectId: string, noteId: string): Promise<void> {
    await this.knowledge.after(
      projectId,
      'notes',
      this.db.transaction(async (m) => {
        await requireProject(m, projectId);
        const result = await m.delete(ProjectNote, { id: noteId, project_id: projectId });
        if (!result.affected) throw NoteError.noteNotFound(noteId);
      }),
    );
  }
}
