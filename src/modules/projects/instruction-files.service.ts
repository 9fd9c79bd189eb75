import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { HitlDecision, HitlDecisionHooks, HitlDecisionOutcome } from '../hitl/hitl-decision-hooks';
import { HitlRequest } from '../hitl/hitl-request.entity';
import { HitlReview, HitlReviewStatus } from '../hitl/hitl-review.entity';
import { HitlService } from '../hitl/hitl.service';
import { CodehostError, CodehostErrorCode } from '../codehost/codehost.errors';
import { CodehostReads } from '../codehost/codehost-reads.service';
import { CodehostWrites } from '../codehost/codehost-writes.service';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { replaceSection } from './md-section.util';
import { PROJECT_FILE_MAX_CHARS } from './project-extras.constants';
import { ProjectExtrasError } from './project-extras.errors';
import { fileDiff, readRepoFile, writeAtomically } from './repo-instruction-file.util';

/** What a reviewed edit carries from the moment it was shown to the moment it is applied. */
interface EditPayload {
  /** Hosted: the file is in the connected code-host repository (`base_sha256` is then its blob sha, or null for a new file). */
  remote?: boolean;
  repo_path: string;
  filename: string;
  section: string;
  base_sha256: string;
  content: string;
  diff: string;
}

export interface RepositorySectionResult {
  /** The committed file in the project's checkout (executor_config.repo_path), or in its connected code-host repository (hosted). */
  location: 'repository' | 'codehost';
  /** The file, relative to the repository root. */
  path: string;
  section: string;
  section_created: boolean;
  file_created: boolean;
  /** Written now (force, or nothing to change), or waiting for the review. */
  applied: boolean;
  diff: string;
  /** The HITL review the edit waits for; null when it was applied. */
  review: { review_id: string; hitl_request_id: string; status: HitlReviewStatus } | null;
  /** Hosted: the commit that applied it, when it was applied now. */
  commit?: { branch: string; sha: string | null } | null;
}

export interface SectionEdit {
  projectId: string;
  repoPath: string;
  filename: string;
  section: string;
  text: string;
  create: boolean;
  force: boolean;
  sessionId?: string;
}

/**
 * update_md_section on an instruction file committed in the project's local
 * checkout (self-hosted, executor_config.repo_path). Without `force` the edit
 * is a HITL review: the file is untouched until a person approves, and an
 * approval writes exactly the content that was shown, provided the file is
 * still what it was (else INSTRUCTIONS_CHANGED and nothing is written).
 */
@Injectable()
export class InstructionFilesService implements OnModuleInit {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly hitl: HitlService,
    private readonly hooks: HitlDecisionHooks,
    private readonly settings: ProjectSettingsService,
    private readonly reads: CodehostReads,
    private readonly writes: CodehostWrites,
  ) {}

  onModuleInit(): void {
    this.hooks.register((request, decision) => this.decide(request, decision));
  }

  async edit(input: SectionEdit): Promise<RepositorySectionResult> {
    const current = await readRepoFile(input.repoPath, input.filename);
    if (current.content === null && !input.create) throw ProjectExtrasError.fileNotFound(input.filename);
    const next = replaceSection(current.name, current.content ?? '', input.section, input.text, input.create);
    if (next.content.length > PROJECT_FILE_MAX_CHARS) throw ProjectExtrasError.fileTooLarge(PROJECT_FILE_MAX_CHARS);
    const diff = fileDiff(current.name, current.content, next.content);
    const result = { location: 'repository' as const, path: current.name, section: input.section, section_created: next.created, file_created: current.content === null, diff };
    if (input.force || next.content === current.content) {
      if (next.content !== current.content) await writeAtomically(current.path, next.content);
      return { ...result, applied: true, review: null };
    }
    const payload: EditPayload = { repo_path: input.repoPath, filename: current.name, section: input.section, base_sha256: current.sha256, content: next.content, diff };
    return { ...result, applied: false, review: await this.askReview(input, current.name, diff, payload) };
  }

  /** The HITL request (asked by the proposing session, a person required) and the review row that waits on it. */
  private async askReview(input: Pick<SectionEdit, 'projectId' | 'section' | 'sessionId'>, name: string, diff: string, payload: EditPayload) {
    if (!input.sessionId) throw ProjectExtrasError.reviewSessionRequired(name);
    const request = await this.hitl.create(input.projectId, {
      session_id: input.sessionId,
      question: `Apply this edit to ${name} (section ${input.section}) in the repository? Answer "approve" to write it; dismiss to drop it.`,
      context: diff,
      require_human: true,
    });
    const review: HitlReview = {
      id: randomUUID(),
      project_id: input.projectId,
      hitl_request_id: request.id,
      kind: 'instructions_edit',
      subject: name,
      payload: JSON.stringify(payload),
      status: 'pending',
      outcome: null,
      created_at: this.clock.now(),
      decided_at: null,
    };
    await this.db.transaction((m) => m.insert(HitlReview, review));
    return { review_id: review.id, hitl_request_id: request.id, status: 'pending' as const };
  }

  /**
   * Hosted: the same edit on the file in the project's connected code-host
   * repository, committed through the code-host client (on the default
   * branch, with the blob sha it was computed from, so a file changed
   * meanwhile is refused by the code host). Null when the project has no
   * connected repository: the file then stays in Baton's database.
   */
  async editRemote(input: Omit<SectionEdit, 'repoPath'>): Promise<RepositorySectionResult | null> {
    let current: { content: string; sha: string } | null;
    try {
      current = await this.reads.file(input.projectId, { path: input.filename });
    } catch (error) {
      if (error instanceof CodehostError && error.code === CodehostErrorCode.NotConnected) return null;
      if (error instanceof CodehostError && error.code === CodehostErrorCode.NotFound) current = null;
      else throw error;
    }
    if (!current && !input.create) throw ProjectExtrasError.fileNotFound(input.filename);
    const next = replaceSection(input.filename, current?.content ?? '', input.section, input.text, input.create);
    if (next.content.length > PROJECT_FILE_MAX_CHARS) throw ProjectExtrasError.fileTooLarge(PROJECT_FILE_MAX_CHARS);
    const diff = fileDiff(input.filename, current?.content ?? null, next.content);
    const result = { location: 'codehost' as const, path: input.filename, section: input.section, section_created: next.created, file_created: current === null, diff };
    if (next.content === current?.content) return { ...result, applied: true, review: null, commit: null };
    if (input.force) {
      const written = await this.commit(input.projectId, input.filename, input.section, next.content, current?.sha ?? null);
      return { ...result, applied: true, review: null, commit: written };
    }
    const payload: EditPayload = { remote: true, repo_path: '', filename: input.filename, section: input.section, base_sha256: current?.sha ?? '', content: next.content, diff };
    const review = await this.askReview(input, input.filename, diff, payload);
    return { ...result, applied: false, review, commit: null };
  }

  private async commit(projectId: string, filename: string, section: string, content: string, baseSha: string | null) {
    if (baseSha === null) {
      // A new file: one that appeared meanwhile is a change the person did not see.
      const appeared = await this.reads.file(projectId, { path: filename }).then(
        () => true,
        (error) => {
          if (error instanceof CodehostError && error.code === CodehostErrorCode.NotFound) return false;
          throw error;
        },
      );
      if (appeared) throw ProjectExtrasError.instructionsChanged(filename);
    }
    try {
      const written = await this.writes.patchFile(projectId, {
        path: filename,
        content,
        message: `Update section ${section} of ${filename} (through Baton)`,
        ...(baseSha ? { expected_sha: baseSha } : {}),
      });
      return { branch: written.branch, sha: written.commit_sha };
    } catch (error) {
      if (error instanceof CodehostError && error.code === CodehostErrorCode.FileChanged) throw ProjectExtrasError.instructionsChanged(filename);
      throw error;
    }
  }

  /** Runs when the review's request is answered or dismissed: an approval writes the file, anything else drops the edit. */
  private async decide(request: HitlRequest, decision: HitlDecision): Promise<HitlDecisionOutcome> {
    const review = await this.db.read((m) => m.findOneBy(HitlReview, { hitl_request_id: request.id, kind: 'instructions_edit' }));
    if (!review || review.status !== 'pending') return;
    if (!decision.approves) {
      await this.close(review, 'declined', decision.action === 'dismiss' ? 'dismissed' : `not approved: ${decision.answer ?? ''}`.slice(0, 500));
      return;
    }
    const payload = JSON.parse(review.payload) as EditPayload;
    const conflict = async (error: ProjectExtrasError) => {
      await this.close(review, 'conflict', error.message);
      return { refuse: { error, answer: `Not applied: ${error.message}` } };
    };
    if (payload.remote) {
      // Claimed first: a second approval racing this one finds it no longer pending.
      if (!(await this.close(review, 'applied', null))) return;
      try {
        await this.commit(review.project_id, payload.filename, payload.section, payload.content, payload.base_sha256 || null);
      } catch (error) {
        if (!(error instanceof ProjectExtrasError || error instanceof CodehostError)) throw error;
        await this.db.transaction((m) => m.update(HitlReview, { id: review.id }, { status: 'conflict', outcome: error.message }));
        return { refuse: { error, answer: `Not applied: ${error.message}` } };
      }
      return;
    }
    const repoPath = await this.db.read(async (m) => (await this.settings.read(m, review.project_id)).executor_config.repo_path);
    if (repoPath !== payload.repo_path) return conflict(ProjectExtrasError.instructionsChanged(payload.filename));
    let current;
    try {
      current = await readRepoFile(repoPath, payload.filename);
    } catch (error) {
      if (error instanceof ProjectExtrasError) return conflict(error);
      throw error;
    }
    if (current.sha256 !== payload.base_sha256) return conflict(ProjectExtrasError.instructionsChanged(payload.filename));
    // One approval writes: a second one racing it finds the review no longer pending.
    if (!(await this.close(review, 'applied', null))) return;
    await writeAtomically(current.path, payload.content);
  }

  private async close(review: HitlReview, status: HitlReviewStatus, outcome: string | null): Promise<boolean> {
    return this.db.transaction(async (m) => {
      const result = await m.update(HitlReview, { id: review.id, status: 'pending' }, { status, outcome, decided_at: this.clock.now() });
      return (result.affected ?? 0) > 0;
    });
  }
}
