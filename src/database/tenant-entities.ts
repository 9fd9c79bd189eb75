import { AiLogEvent } from '../modules/ai-log/ai-log-event.entity';
import { AiLogExportConfig } from '../modules/ai-log/ai-log-export-config.entity';
import { AiLogExportState } from '../modules/ai-log/ai-log-export-state.entity';
import { SessionNote } from '../modules/context/session-note.entity';
import { Handoff } from '../modules/handoff/handoff.entity';
import { HandoffCorrection } from '../modules/handoff/handoff-correction.entity';
import { QueuedSession } from '../modules/handoff/queued-session.entity';
import { HookEvent } from '../modules/hooks/hook-event.entity';
import { HookSession } from '../modules/hooks/hook-session.entity';
import { HitlRequest } from '../modules/hitl/hitl-request.entity';
import { Message } from '../modules/messages/message.entity';
import { MessageCursor } from '../modules/messages/message-cursor.entity';
import { NotifySettings } from '../modules/notifications/notify-settings.entity';
import { Project } from '../modules/projects/project.entity';
import { ProjectSettingsRow } from '../modules/project-settings/project-settings.entity';
import { ProfileLayer } from '../modules/profile-layers/profile-layer.entity';
import { ProfileLayerRevision } from '../modules/profile-layers/profile-layer-revision.entity';
import { ProfileSessionBaseline } from '../modules/profile-layers/profile-session-baseline.entity';
import { FileLock } from '../modules/sessions/file-lock.entity';
import { Session } from '../modules/sessions/session.entity';
import { SprintItem } from '../modules/sprint/sprint-item.entity';
import { SprintItemResource } from '../modules/sprint/sprint-item-resource.entity';
import { SprintTrack } from '../modules/sprint/sprint-track.entity';
import { SprintWaveSummary } from '../modules/sprint/sprint-wave-summary.entity';
import { Goal } from '../modules/goals/goal.entity';
import { GoalVersion } from '../modules/goals/goal-version.entity';
import { DecisionLogEntry } from '../modules/notes/decision-log-entry.entity';
import { DevlogEntry } from '../modules/notes/devlog-entry.entity';
import { Insight } from '../modules/notes/insight.entity';
import { PinnedDecision } from '../modules/notes/pinned-decision.entity';
import { ProjectNote } from '../modules/notes/project-note.entity';
import { ProjectFile } from '../modules/projects/project-file.entity';
import { Task } from '../modules/tasks/task.entity';
import { WorkspaceDecision } from '../modules/workspace-layer/workspace-decision.entity';
import { WorkspaceNote } from '../modules/workspace-layer/workspace-note.entity';
import { WorkspaceSettingsRow } from '../modules/workspace-layer/workspace-settings.entity';
import { WorkspaceSprintItem } from '../modules/workspace-layer/workspace-sprint-item.entity';

/** Entities stored in each tenant's database. A module adding a table adds its entity here. */
export const TENANT_ENTITIES = [
  Project,
  Session,
  FileLock,
  ProjectSettingsRow,
  HitlRequest,
  Message,
  MessageCursor,
  NotifySettings,
  SessionNote,
  Handoff,
  HandoffCorrection,
  QueuedSession,
  HookSession,
  HookEvent,
  SprintItem,
  SprintItemResource,
  SprintTrack,
  SprintWaveSummary,
  Goal,
  GoalVersion,
  Task,
  ProjectNote,
  Insight,
  DecisionLogEntry,
  DevlogEntry,
  PinnedDecision,
  WorkspaceNote,
  WorkspaceDecision,
  WorkspaceSprintItem,
  WorkspaceSettingsRow,
  ProjectFile,
  ProfileLayer,
  ProfileLayerRevision,
  ProfileSessionBaseline,
  AiLogEvent,
  AiLogExportConfig,
  AiLogExportState,
];
