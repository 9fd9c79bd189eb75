import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { SessionError } from '../sessions/sessions.errors';
import { HandoffHooks } from '../../common/extensions/handoff-hooks';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ToolRegistry } from '../../mcp/tool-registry.service';
import { HostedDefaultsStore } from '../profile-layers/hosted-defaults.store';
import { requireProject } from '../projects/require-project.util';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { GenerateHandoffDto } from './dto/generate-handoff.dto';
import { changedFilesInLastCommits, ChangedFiles } from './git-changes.util';
import { HandoffMode } from './handoff.constants';
import { CarriedWork, HandoffCarry } from './handoff-carry.service';
import { Handoff } from './handoff.entity';
import { requireSessionOf } from './handoff-corrections.service';
import { buildHandoff } from './handoff-document.util';
import { HandoffMaterialService } from './handoff-material.service';
import { contentWithoutToken, hashHandoffToken, newHandoffToken } from './handoff-token.util';
import { QueuedSessionsService } from './queued-sessions.service';
import { toolManifestHash } from './tool-manifest.util';

export interface HandoffAnswer {
  /** Self-hosted: where the file was written. Hosted: a relative name to save the content under (nothing is written on the server). */
  file_path: string;
  content: string;
  handoff_id: string;
  token: string;
  mode: HandoffMode;
  bytes: number;
  budget_bytes: number;
  truncated: boolean;
  expires_at: string;
  queued_goal_included: boolean;
  changed_files: string[];
  /** With `carry`: the work now held for whoever accepts the handoff; null otherwise. */
  carried: CarriedWork | null;
}

/**
 * Handoffs (spec §4 Handoff): a document for whoever works on the project
 * next, recorded so it can be checked later (accept_handoff) and started
 * from once (start_session with its token).
 */
@Injectable()
export class HandoffService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly material: HandoffMaterialService,
    private readonly queue: QueuedSessionsService,
    private readonly settings: ProjectSettingsService,
    private readonly hooks: HandoffHooks,
    private readonly tools: ToolRegistry,
    private readonly hostedDefaults: HostedDefaultsStore,
    private readonly carry: HandoffCarry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async generate(projectId: string, input: GenerateHandoffDto): Promise<HandoffAnswer> {
    // Settings and the profile extra resolve hosted defaults: up to date before a tenant connection is held.
    await this.hostedDefaults.warm();
    const changes = await this.recentChanges(projectId);
    return this.db.transaction(async (m) => {
      const project = await requireProject(m, projectId);
      const session = input.session_id ? await requireSessionOf(m, projectId, input.session_id) : null;
      if (input.carry && !session) throw RequestError.invalidInput('carry needs session_id: the session whose work the handoff carries');
      if (input.carry && session?.status !== 'active') throw SessionError.closed(input.session_id as string);
      // Hooks first (the sprint module fills touches_files), so the sections show their result.
      await this.hooks.runAll(m, { projectId, changedFiles: changes.files });
      const previous = await m.findOne(Handoff, { where: { project_id: projectId }, order: { created_at: 'DESC', id: 'DESC' } });
      const mode: HandoffMode = input.mode ?? (previous ? 'delta' : 'goal');
      const now = this.clock.now();
      const id = randomUUID();
      const token = newHandoffToken();
      const expiresAt = new Date(now.getTime() + this.config.handoffTtlS * 1000);
      // Before the material is read: the handoff shows the carried work as held for it.
      const carried = input.carry && session ? await this.carry.take(m, session, id, expiresAt) : null;
      const material = await this.material.gather(m, project, mode, session, previous?.created_at ?? null, now, changes);
      const queuedGoal = await this.queue.take(m, projectId);
      const doc = buildHandoff({ ...material, handoffId: id, token, expiresAt, summary: input.summary, queuedGoal });
      const fileName = `${now.toISOString().replace(/[:.]/g, '-')}-${mode}-${id.slice(0, 8)}.md`;
      await m.insert(Handoff, {
        id,
        project_id: projectId,
        session_id: session?.id ?? null,
        mode,
        // Shown once, in this answer; the row keeps only its hash, as for API tokens.
        token_sha256: hashHandoffToken(token),
        file_name: fileName,
        content: contentWithoutToken(doc.content, token),
        body_sha256: doc.bodySha256,
        board_sha256: material.boardSha256,
        tools_sha256: toolManifestHash(this.tools),
        bytes: doc.bytes,
        created_at: now,
        expires_at: expiresAt,
        consumed_at: null,
        consumed_by_session_id: null,
        carrier_session_id: carried?.carrierId ?? null,
      });
      // Written inside the transaction: a file that cannot be written leaves no record behind.
      const filePath = await this.store(projectId, fileName, doc.content);
      return {
        file_path: filePath,
        content: doc.content,
        handoff_id: id,
        token,
        mode,
        bytes: doc.bytes,
        budget_bytes: doc.budgetBytes,
        truncated: doc.truncated,
        expires_at: expiresAt.toISOString(),
        queued_goal_included: queuedGoal !== null,
        changed_files: changes.files,
        carried: carried?.carried ?? null,
      };
    });
  }

  /** A planner handoff as it would be now: nothing recorded, no queued goal taken, no hooks run. */
  async planner(projectId: string) {
    await this.hostedDefaults.warm();
    return this.db.transaction(async (m) => {
      const project = await requireProject(m, projectId);
      const previous = await m.findOne(Handoff, { where: { project_id: projectId }, order: { created_at: 'DESC', id: 'DESC' } });
      const material = await this.material.gather(m, project, 'planner', null, previous?.created_at ?? null, this.clock.now(), { files: [] });
      const doc = buildHandoff({ ...material, handoffId: null, token: null, expiresAt: null, queuedGoal: null });
      return { mode: 'planner' as const, content: doc.content, bytes: doc.bytes, budget_bytes: doc.budgetBytes, truncated: doc.truncated };
    });
  }

  /** Files changed in the last three commits, when the project names a repository and Baton runs on that machine. */
  private async recentChanges(projectId: string): Promise<ChangedFiles> {
    const repoPath = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return (await this.settings.read(m, projectId)).executor_config.repo_path;
    });
    if (!repoPath || this.config.isHosted) return { files: [] };
    return changedFilesInLastCommits(repoPath);
  }

  private async store(projectId: string, fileName: string, content: string): Promise<string> {
    // Hosted: the server's disk is no place for tenant documents, and its paths are not the client's business.
    if (this.config.isHosted) return `.baton/handoffs/${fileName}`;
    const dir = join(this.config.dataDir, 'handoffs', projectId);
    await mkdir(dir, { recursive: true });
    const path = join(dir, fileName);
    await writeFile(path, content, { encoding: 'utf8', flag: 'wx' });
    return path;
  }
}
