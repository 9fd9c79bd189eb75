import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../../common/events/domain-events';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { PROJECT_FILENAME } from '../projects/project-extras.constants';
import { ProjectFile } from '../projects/project-file.entity';
import { ProjectFileView } from '../projects/project-file.view';
import { ProjectFilesService } from '../projects/project-files.service';
import { requireProject } from '../projects/require-project.util';
import { BINARY_CHARS, UPLOAD_MAX_BYTES, UPLOAD_TYPES } from './documents.constants';
import { DocumentOutline, outlineOf } from './document-outline.util';
import { reviewDocument, ReviewIssue } from './document-review.util';
import { KnowledgeError } from './knowledge.errors';

/** A file part of a multipart upload, as multer hands it over. */
export interface UploadedText {
  originalname: string;
  mimetype: string;
  buffer: Buffer;
  size: number;
}

export interface UploadResult {
  file: ProjectFileView;
  created: boolean;
}

export interface DocumentStructure extends DocumentOutline {
  filename: string;
  size: number;
  updated_at: string;
}

export interface DocumentReview {
  filename: string;
  updated_at: string;
  issues: ReviewIssue[];
}

/**
 * A project's documents are its markdown files (GET/PUT .../files): uploads
 * land there, and the structure and review read them.
 */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly db: TenantDb,
    private readonly files: ProjectFilesService,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
  ) {}

  /** Stores an uploaded text or markdown file as a project file; a `.txt` name is stored as `.md` (notes.txt becomes notes.md): plain text is markdown. */
  async upload(projectId: string, upload: UploadedText | undefined, name: string | undefined): Promise<UploadResult> {
    if (!upload) throw KnowledgeError.uploadMissing();
    if (upload.size > UPLOAD_MAX_BYTES) throw KnowledgeError.uploadTooLarge(UPLOAD_MAX_BYTES);
    const type = upload.mimetype.split(';')[0].trim().toLowerCase();
    if (!UPLOAD_TYPES.includes(type)) throw KnowledgeError.uploadNotText(`got content type ${JSON.stringify(type.slice(0, 80))}`);
    let content: string;
    try {
      content = new TextDecoder('utf-8', { fatal: true }).decode(upload.buffer).replace(/^\uFEFF/, '');
    } catch {
      throw KnowledgeError.uploadNotText('the content is not UTF-8 text');
    }
    if (BINARY_CHARS.test(content)) throw KnowledgeError.uploadNotText('the content holds binary control characters');
    const given = name ?? upload.originalname;
    const filename = given.replace(/\.txt$/i, '.md');
    if (!/\.(md|txt)$/i.test(given) || !PROJECT_FILENAME.test(filename)) throw KnowledgeError.uploadBadName(given);
    return this.files.write(projectId, filename, content);
  }

  /** Headings, links and counts of every document of the project, by file name. */
  async structure(projectId: string, viewer: { viewer: string; via: 'rest' | 'mcp' }): Promise<{ documents: DocumentStructure[] }> {
    const files = await this.read(projectId);
    // A structure view saves nothing: it is recorded as a peek (GET /document-peeks) by whoever listens.
    await this.events.emit('documents.structure_viewed', { project_id: projectId, ...viewer, document_count: files.length });
    return {
      documents: files.map((f) => ({ filename: f.filename, size: Buffer.byteLength(f.content), updated_at: f.updated_at.toISOString(), ...outlineOf(f.content) })),
    };
  }

  /** What needs a look in each document (see reviewDocument); documents without issues are listed with none. */
  async review(projectId: string): Promise<{ documents: DocumentReview[]; issue_count: number }> {
    const files = await this.read(projectId);
    const filenames = new Set(files.map((f) => f.filename_key));
    const now = this.clock.now();
    const documents = files.map((f) => ({
      filename: f.filename,
      updated_at: f.updated_at.toISOString(),
      issues: reviewDocument({ content: f.content, outline: outlineOf(f.content), updatedAt: f.updated_at, now, filenames }),
    }));
    return { documents, issue_count: documents.reduce((n, d) => n + d.issues.length, 0) };
  }

  private read(projectId: string): Promise<ProjectFile[]> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return m.find(ProjectFile, { where: { project_id: projectId }, order: { filename_key: 'ASC' } });
    });
  }
}
