import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

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
  VerificationRequired = 'VERIFICATION_REQUIRED',
  SelfVerification = 'SELF_VERIFICATION',
  NothingToVerify = 'NOTHING_TO_VERIFY',
}

const STATUS: StatusTable<SprintErrorCode> = {
  [SprintErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [SprintErrorCode.WaveNotFound]: HttpStatus.NOT_FOUND,
  [SprintErrorCode.WaveNotComplete]: HttpStatus.NOT_FOUND,
  [SprintErrorCode.StatusNotPatchable]: HttpStatus.BAD_REQUEST,
  [SprintErrorCode.EvidenceRequired]: HttpStatus.BAD_REQUEST,
  [SprintErrorCode.ClaimantMismatch]: HttpStatus.BAD_REQUEST,
  [SprintErrorCode.SelfReference]: HttpStatus.BAD_REQUEST,
  [SprintErrorCode.ReconcileUnavailable]: HttpStatus.BAD_REQUEST,
  [SprintErrorCode.DuplicateTitle]: HttpStatus.CONFLICT,
  [SprintErrorCode.ItemInProgress]: HttpStatus.CONFLICT,
  [SprintErrorCode.ItemTerminal]: HttpStatus.CONFLICT,
  [SprintErrorCode.StatusRace]: HttpStatus.CONFLICT,
  [SprintErrorCode.ClaimMismatch]: HttpStatus.CONFLICT,
  [SprintErrorCode.NotClaimed]: HttpStatus.CONFLICT,
  [SprintErrorCode.AlreadyClaimed]: HttpStatus.CONFLICT,
  [SprintErrorCode.NotClaimable]: HttpStatus.CONFLICT,
  [SprintErrorCode.Deferred]: HttpStatus.CONFLICT,
  [SprintErrorCode.Superseded]: HttpStatus.CONFLICT,
  [SprintErrorCode.DependencyUnmet]: HttpStatus.CONFLICT,
  [SprintErrorCode.TrackDeferred]: HttpStatus.CONFLICT,
  [SprintErrorCode.Unprospected]: HttpStatus.CONFLICT,
  [SprintErrorCode.FileLocked]: HttpStatus.CONFLICT,
  [SprintErrorCode.MilestoneNotClaimable]: HttpStatus.CONFLICT,
  [SprintErrorCode.HumanOnly]: HttpStatus.CONFLICT,
  [SprintErrorCode.SessionProjectMismatch]: HttpStatus.CONFLICT,
  [SprintErrorCode.DependencyCycle]: HttpStatus.CONFLICT,
  [SprintErrorCode.NoRepository]: HttpStatus.CONFLICT,
  [SprintErrorCode.RepositoryUnavailable]: HttpStatus.CONFLICT,
  [SprintErrorCode.VerificationRequired]: HttpStatus.CONFLICT,
  [SprintErrorCode.SelfVerification]: HttpStatus.CONFLICT,
  [SprintErrorCode.NothingToVerify]: HttpStatus.CONFLICT,
};

/** A refusal of the sprint engine; `extra` carries what a client can act on (the holder, the gate, the duplicate). */
export class SprintError extends DomainErrorOf(STATUS) {
  static notFound(ref: string, field?: string) {
    return new SprintError(SprintErrorCode.NotFound, `${field ? `${field}: ` : ''}sprint item not found: ${ref}`);
  }

  static duplicateTitle(title: string, existing: { id: string; title: string; status: string; slug: string }, overlap: number) {
    return new SprintError(
      SprintErrorCode.DuplicateTitle,
      `"${title}" near-duplicates ${existing.status} item "${existing.title}" (${existing.slug}, ${Math.round(overlap * 100)}% of words shared); pass force=true to add it anyway`,
      { existing_item_id: existing.id, existing_slug: existing.slug, existing_status: existing.status, overlap: Math.round(overlap * 100) / 100 },
    );
  }

  static statusNotPatchable(status: string) {
    return new SprintError(
      SprintErrorCode.StatusNotPatchable,
      `PATCH sets status only to pending, todo or indeterminate, not ${status}: use the complete, fail, skip or push routes (or claim_sprint_item) for that`,
    );
  }

  static itemInProgress(ref: string, sessionId: string | null) {
    return new SprintError(
      SprintErrorCode.ItemInProgress,
      `sprint item ${ref} is in progress${sessionId ? ` (claimed by session ${sessionId})` : ''}: pass force=true to change it anyway`,
      { claimed_by_session_id: sessionId },
    );
  }

  static itemTerminal(ref: string, status: string, action: string) {
    return new SprintError(SprintErrorCode.ItemTerminal, `sprint item ${ref} is already ${status}: cannot ${action} it (PATCH its status back to pending to reopen it)`, {
      status,
    });
  }

  static verificationRequired(ref: string, claimer: string | null) {
    return new SprintError(
      SprintErrorCode.VerificationRequired,
      `sprint item ${ref} needs a passing verification by another session before it is completed (claim_verification_mode is strict): a session other than ${claimer ? `the claimer ${claimer}` : 'the one completing it'} calls verify_sprint_item (POST .../sprint-items/${ref}/verify) with passed=true`,
      { claimed_by_session_id: claimer },
    );
  }

  static selfVerification(ref: string, sessionId: string) {
    return new SprintError(
      SprintErrorCode.SelfVerification,
      `session ${sessionId} holds sprint item ${ref}: its pass does not verify its own work; another session must verify it (a failure may still be recorded)`,
      { claimed_by_session_id: sessionId },
    );
  }

  static nothingToVerify(ref: string, status: string) {
    return new SprintError(SprintErrorCode.NothingToVerify, `sprint item ${ref} is ${status}: there is no work to verify until a session has claimed it`, { status });
  }

  static statusRace(ref: string) {
    return new SprintError(SprintErrorCode.StatusRace, `sprint item ${ref} changed while this request ran; read it again and retry`);
  }

  static evidenceRequired(ref: string) {
    return new SprintError(SprintErrorCode.EvidenceRequired, `sprint item ${ref} has required_notes=1: completing it needs notes describing the evidence, or a task_id`);
  }

  static claimMismatch(ref: string, holder: string | null, action: string) {
    return new SprintError(SprintErrorCode.ClaimMismatch, `cannot ${action} sprint item ${ref}: it is held by session ${holder ?? 'none'}, not by the session given`, {
      claimed_by_session_id: holder,
    });
  }

  static notClaimed(ref: string, status: string) {
    return new SprintError(SprintErrorCode.NotClaimed, `sprint item ${ref} is ${status}, not in progress: there is no claim to release`, { status });
  }

  static alreadyClaimed(
    ref: string,
    holder: { session_id: string | null; session_name: string | null; claimed_at: string | null; claimant: string | null },
    nextItemId: string | null,
  ) {
    const who = holder.session_id ? `session ${holder.session_name ?? '?'} (${holder.session_id})` : 'another session';
    return new SprintError(
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
    return new SprintError(SprintErrorCode.NotClaimable, `sprint item ${ref} is ${status}: finished items cannot be claimed`, { gate: 'status', status });
  }

  static deferred(ref: string, until: string) {
    return new SprintError(SprintErrorCode.Deferred, `sprint item ${ref} is deferred until ${until}`, { gate: 'deferred', deferred_until: until });
  }

  static superseded(ref: string) {
    return new SprintError(SprintErrorCode.Superseded, `sprint item ${ref} is superseded (blocker_kind superseded) and cannot be claimed`, {
      gate: 'superseded',
    });
  }

  static dependencyUnmet(ref: string, dependency: { id: string; slug: string; title: string; status: string }, stopped: boolean) {
    const why = stopped ? `failed and this item's failure_mode is stop` : `is ${dependency.status}, not finished`;
    return new SprintError(SprintErrorCode.DependencyUnmet, `sprint item ${ref} depends on ${dependency.slug} (${dependency.id}), which ${why}`, {
      gate: 'depends_on',
      depends_on: dependency.id,
      depends_on_slug: dependency.slug,
      depends_on_title: dependency.title,
      depends_on_status: dependency.status,
    });
  }

  static trackDeferred(ref: string, track: string, state: string) {
    return new SprintError(SprintErrorCode.TrackDeferred, `sprint item ${ref} is in track ${track}, which is ${state}`, {
      gate: 'track',
      track,
      track_state: state,
    });
  }

  /** The prospect gate: resources declared, no locations attached yet. The detail says how to lift it. */
  static unprospected(projectId: string, ref: string, touchesResources: string) {
    return new SprintError(
      SprintErrorCode.Unprospected,
      `sprint item ${ref} declares touches_resources ${touchesResources} but no planner has attached concrete locations to it yet: attach them with prospect_sprint_item or POST /projects/${projectId}/sprint-items/${ref}/prospect {"locations": ["src/a.ts:42#parse"]}, or set prospect_bypass=1 to skip this gate`,
      { gate: 'prospect', touches_resources: JSON.parse(touchesResources) as unknown },
    );
  }

  static fileLocked(ref: string, lock: { file_path: string; session_id: string; session_name: string; expires_at: string }) {
    return new SprintError(
      SprintErrorCode.FileLocked,
      `sprint item ${ref} touches ${lock.file_path}, locked by session ${lock.session_name} (${lock.session_id}) until ${lock.expires_at}`,
      { gate: 'file_lock', file_path: lock.file_path, holder_session_id: lock.session_id, holder_name: lock.session_name, expires_at: lock.expires_at },
    );
  }

  static milestoneNotClaimable(ref: string) {
    return new SprintError(SprintErrorCode.MilestoneNotClaimable, `sprint item ${ref} is a milestone (a timeline marker): an AI worker cannot claim it`, {
      gate: 'milestone',
    });
  }

  static humanOnly(ref: string) {
    return new SprintError(SprintErrorCode.HumanOnly, `sprint item ${ref} is for a human to carry out: an AI worker cannot claim it`, { gate: 'human' });
  }

  static sessionProjectMismatch(sessionId: string) {
    return new SprintError(SprintErrorCode.SessionProjectMismatch, `session ${sessionId} belongs to another project`);
  }

  static claimantMismatch(sessionId: string) {
    return new SprintError(SprintErrorCode.ClaimantMismatch, `session ${sessionId} is a worker session: it claims as ai, not human`);
  }

  static selfReference(field: string) {
    return new SprintError(SprintErrorCode.SelfReference, `${field} cannot name the item itself`);
  }

  static dependencyCycle(cycle: string[]) {
    return new SprintError(SprintErrorCode.DependencyCycle, `dependency cycle: ${cycle.join(' -> ')}`, { cycle });
  }

  static waveNotFound(wave: string) {
    return new SprintError(SprintErrorCode.WaveNotFound, `no sprint item is in wave ${wave}`);
  }

  static waveNotComplete(wave: string, active: number) {
    return new SprintError(SprintErrorCode.WaveNotComplete, `wave ${wave} is not complete: ${active} item(s) still active`, { active_count: active });
  }

  static reconcileUnavailable() {
    return new SprintError(
      SprintErrorCode.ReconcileUnavailable,
      "reconcile reads the project's commits: connect a code-host repository to the project (POST .../codehost/connect); a hosted instance has no local checkout",
    );
  }

  static noRepository() {
    return new SprintError(SprintErrorCode.NoRepository, 'the project has no repository path: set executor_config.repo_path in its settings');
  }

  static repositoryUnavailable(reason: string) {
    return new SprintError(SprintErrorCode.RepositoryUnavailable, `the project's repository cannot be read: ${reason}`);
  }
}
