import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum SprintErrorCode {
  NotFound = 'SPRINT_ITEM_NOT_FOUND',
  DuplicateTitle = 'DUPLICATE_TITLE',
  StatusNotPatchable = 'STATUS_NOT_PATCHABLE',
  ItemInProgress = 'ITEM_IN_PROGRESS',
  ItemTerminal = 'ITEM_TERMINAL',
  StatusRace = 'STATUS_RACE',
  EvidenceRequired = 'EVIDENCE_REQUIRED',
  ClaimMismatch = 'CLAIM_MISMATCH',
  NotClaimed = 'NOT_CLAIMED',
  AlreadyClaimed = 'ALREADY_CLAIMED',
  NotClaimable = 'ITEM_NOT_CLAIMABLE',
  Deferred = 'DEFERRED',
  Superseded = 'SUPERSEDED',
  DependencyUnmet = 'DEPENDENCY_UNMET',
  TrackDeferred = 'TRACK_DEFERRED',
  Unprospected = 'UNPROSPECTED',
  FileLocked = 'FILE_LOCKED',
  MilestoneNotClaimable = 'MILESTONE_NOT_CLAIMABLE',
  HumanOnly = 'HUMAN_ONLY',
  SessionProjectMismatch = 'SESSION_PROJECT_MISMATCH',
  ClaimantMismatch = 'CLAIMANT_MISMATCH',
  SelfReference = 'SELF_REFERENCE',
  DependencyCycle = 'DEPENDENCY_CYCLE',
  WaveNotFound = 'WAVE_NOT_FOUND',
  WaveNotComplete = 'WAVE_NOT_COMPLETE',
  ReconcileUnavailable = 'RECONCILE_UNAVAILABLE',
  NoRepository = 'NO_REPOSITORY',
  RepositoryUnavailable = 'REPOSITORY_UNAVAILABLE',
}

/** A refusal of the sprint engine; `extra` carries what a client can act on (the holder, the gate, the duplicate). */
export class SprintError extends DomainError<SprintErrorCode> {
  private fields?: Record<string, unknown>;

  private static make(code: SprintErrorCode, detail: string, fields?: Record<string, unknown>) {
    const error = new SprintError(code, detail);
    error.fields = fields;
    return error;
  }

  static notFound(ref: string, field?: string) {
    return SprintError.make(SprintErrorCode.NotFound, `${field ? `${field}: ` : ''}sprint item not found: ${ref}`);
  }

  static duplicateTitle(title: string, existing: { id: string; title: string; status: string; slug: string }, overlap: number) {
    return SprintError.make(
      SprintErrorCode.DuplicateTitle,
      `"${title}" near-duplicates ${existing.status} item "${existing.title}" (${existing.slug}, ${Math.round(overlap * 100)}% of words shared); pass force=true to add it anyway`,
      { existing_item_id: existing.id, existing_slug: existing.slug, existing_status: existing.status, overlap: Math.round(overlap * 100) / 100 },
    );
  }

  static statusNotPatchable(status: string) {
    return SprintError.make(
      SprintErrorCode.StatusNotPatchable,
      `PATCH sets status only to pending, todo or indeterminate, not ${status}: use the complete, fail, skip or push routes (or claim_sprint_item) for that`,
    );
  }

  static itemInProgress(ref: string, sessionId: string | null) {
    return SprintError.make(
      SprintErrorCode.ItemInProgress,
      `sprint item ${ref} is in progress${sessionId ? ` (claimed by session ${sessionId})` : ''}: pass force=true to change it anyway`,
      { claimed_by_session_id: sessionId },
    );
  }

  static itemTerminal(ref: string, status: string, action: string) {
    return SprintError.make(SprintErrorCode.ItemTerminal, `sprint item ${ref} is already ${status}: cannot ${action} it (PATCH its status back to pending to reopen it)`, {
      status,
    });
  }

  static statusRace(ref: string) {
    return SprintError.make(SprintErrorCode.StatusRace, `sprint item ${ref} changed while this request ran; read it again and retry`);
  }

  static evidenceRequired(ref: string) {
    return SprintError.make(SprintErrorCode.EvidenceRequired, `sprint item ${ref} has required_notes=1: completing it needs notes describing the evidence, or a task_id`);
  }

  static claimMismatch(ref: string, holder: string | null, action: string) {
    return SprintError.make(SprintErrorCode.ClaimMismatch, `cannot ${action} sprint item ${ref}: it is held by session ${holder ?? 'none'}, not by the session given`, {
      claimed_by_session_id: holder,
    });
  }

  static notClaimed(ref: string, status: string) {
    return SprintError.make(SprintErrorCode.NotClaimed, `sprint item ${ref} is ${status}, not in progress: there is no claim to release`, { status });
  }

  static alreadyClaimed(
    ref: string,
    holder: { session_id: string | null; session_name: string | null; claimed_at: string | null; claimant: string | null },
    nextItemId: string | null,
  ) {
    const who = holder.session_id ? `session ${holder.session_name ?? '?'} (${holder.session_id})` : 'another session';
    return SprintError.make(
      SprintErrorCode.AlreadyClaimed,
      `sprint item ${ref} is already claimed by ${who} since ${holder.claimed_at ?? 'an unknown time'}${nextItemId ? `; next claimable item: ${nextItemId}` : ''}`,
      {
        claimed: false,
        claimed_by_session_id: holder.session_id,
        claimed_by_session_name: holder.session_name,
        claimed_at: holder.claimed_at,
        claimant: holder.claimant,
        next_item_id: nextItemId,
      },
    );
  }

  static notClaimable(ref: string, status: string) {
    return SprintError.make(SprintErrorCode.NotClaimable, `sprint item ${ref} is ${status}: finished items cannot be claimed`, { gate: 'status', status });
  }

  static deferred(ref: string, until: string) {
    return SprintError.make(SprintErrorCode.Deferred, `sprint item ${ref} is deferred until ${until}`, { gate: 'deferred', deferred_until: until });
  }

  static superseded(ref: string) {
    return SprintError.make(SprintErrorCode.Superseded, `sprint item ${ref} is superseded (blocker_kind superseded) and cannot be claimed`, {
      gate: 'superseded',
    });
  }

  static dependencyUnmet(ref: string, dependency: { id: string; slug: string; title: string; status: string }, stopped: boolean) {
    const why = stopped ? `failed and this item's failure_mode is stop` : `is ${dependency.status}, not finished`;
    return SprintError.make(SprintErrorCode.DependencyUnmet, `sprint item ${ref} depends on ${dependency.slug} (${dependency.id}), which ${why}`, {
      gate: 'depends_on',
      depends_on: dependency.id,
      depends_on_slug: dependency.slug,
      depends_on_title: dependency.title,
      depends_on_status: dependency.status,
    });
  }

  static trackDeferred(ref: string, track: string, state: string) {
    return SprintError.make(SprintErrorCode.TrackDeferred, `sprint item ${ref} is in track ${track}, which is ${state}`, {
      gate: 'track',
      track,
      track_state: state,
    });
  }

  /** The prospect gate: resources declared, no locations attached yet. The detail says how to lift it. */
  static unprospected(projectId: string, ref: string, touchesResources: string) {
    return SprintError.make(
      SprintErrorCode.Unprospected,
      `sprint item ${ref} declares touches_resources ${touchesResources} but no planner has attached concrete locations to it yet: attach them with prospect_sprint_item or POST /projects/${projectId}/sprint-items/${ref}/prospect {"locations": ["src/a.ts:42#parse"]}, or set prospect_bypass=1 to skip this gate`,
      { gate: 'prospect', touches_resources: JSON.parse(touchesResources) as unknown },
    );
  }

  static fileLocked(ref: string, lock: { file_path: string; session_id: string; session_name: string; expires_at: string }) {
    return SprintError.make(
      SprintErrorCode.FileLocked,
      `sprint item ${ref} touches ${lock.file_path}, locked by session ${lock.session_name} (${lock.session_id}) until ${lock.expires_at}`,
      { gate: 'file_lock', file_path: lock.file_path, holder_session_id: lock.session_id, holder_name: lock.session_name, expires_at: lock.expires_at },
    );
  }

  static milestoneNotClaimable(ref: string) {
    return SprintError.make(SprintErrorCode.MilestoneNotClaimable, `sprint item ${ref} is a milestone (a timeline marker): an AI worker cannot claim it`, {
      gate: 'milestone',
    });
  }

  static humanOnly(ref: string) {
    return SprintError.make(SprintErrorCode.HumanOnly, `sprint item ${ref} is for a human to carry out: an AI worker cannot claim it`, { gate: 'human' });
  }

  static sessionProjectMismatch(sessionId: string) {
    return SprintError.make(SprintErrorCode.SessionProjectMismatch, `session ${sessionId} belongs to another project`);
  }

  static claimantMismatch(sessionId: string) {
    return SprintError.make(SprintErrorCode.ClaimantMismatch, `session ${sessionId} is a worker session: it claims as ai, not human`);
  }

  static selfReference(field: string) {
    return SprintError.make(SprintErrorCode.SelfReference, `${field} cannot name the item itself`);
  }

  static dependencyCycle(cycle: string[]) {
    return SprintError.make(SprintErrorCode.DependencyCycle, `dependency cycle: ${cycle.join(' -> ')}`, { cycle });
  }

  static waveNotFound(wave: string) {
    return SprintError.make(SprintErrorCode.WaveNotFound, `no sprint item is in wave ${wave}`);
  }

  static waveNotComplete(wave: string, active: number) {
    return SprintError.make(SprintErrorCode.WaveNotComplete, `wave ${wave} is not complete: ${active} item(s) still active`, { active_count: active });
  }

  static reconcileUnavailable() {
    return SprintError.make(SprintErrorCode.ReconcileUnavailable, 'reconcile reads a local git repository: it is available on self-hosted instances only');
  }

  static noRepository() {
    return SprintError.make(SprintErrorCode.NoRepository, 'the project has no repository path: set executor_config.repo_path in its settings');
  }

  static repositoryUnavailable(reason: string) {
    return SprintError.make(SprintErrorCode.RepositoryUnavailable, `the project's repository cannot be read: ${reason}`);
  }

  override get extra() {
    return this.fields;
  }

  get httpStatus(): number {
    switch (this.code) {
      case SprintErrorCode.NotFound:
      case SprintErrorCode.WaveNotFound:
      case SprintErrorCode.WaveNotComplete:
        return 404;
      case SprintErrorCode.StatusNotPatchable:
      case SprintErrorCode.EvidenceRequired:
      case SprintErrorCode.ClaimantMismatch:
      case SprintErrorCode.SelfReference:
      case SprintErrorCode.ReconcileUnavailable:
        return 400;
      case SprintErrorCode.DuplicateTitle:
      case SprintErrorCode.ItemInProgress:
      case SprintErrorCode.ItemTerminal:
      case SprintErrorCode.StatusRace:
      case SprintErrorCode.ClaimMismatch:
      case SprintErrorCode.NotClaimed:
      case SprintErrorCode.AlreadyClaimed:
      case SprintErrorCode.NotClaimable:
      case SprintErrorCode.Deferred:
      case SprintErrorCode.Superseded:
      case SprintErrorCode.DependencyUnmet:
      case SprintErrorCode.TrackDeferred:
      case SprintErrorCode.Unprospected:
      case SprintErrorCode.FileLocked:
      case SprintErrorCode.MilestoneNotClaimable:
      case SprintErrorCode.HumanOnly:
      case SprintErrorCode.SessionProjectMismatch:
      case SprintErrorCode.DependencyCycle:
      case SprintErrorCode.NoRepository:
      case SprintErrorCode.RepositoryUnavailable:
        return 409;
      default:
        return assertUnreachable(this.code);
    }
  }
}
