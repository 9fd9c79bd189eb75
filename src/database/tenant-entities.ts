import { McpElicitation, McpSessionEvent, McpSessionRow, McpSubscription } from '../mcp/sessions/mcp-session.entities';
import { TunnelSettingsRow } from '../modules/tunnel/tunnel-settings.entity';
import { AiLogEvent } from '../modules/ai-log/ai-log-event.entity';
import { AiLogExportConfig } from '../modules/ai-log/ai-log-export-config.entity';
import { AiLogExportState } from '../modules/ai-log/ai-log-export-state.entity';
import { ProjectCodehost } from '../modules/codehost/project-codehost.entity';
import { SessionNote } from '../modules/context/session-note.entity';
import { Handoff } from '../modules/handoff/handoff.entity';
import { HandoffCorrection } from '../modules/handoff/handoff-correction.entity';
import { QueuedSession } from '../modules/handoff/queued-session.entity';
import { HookEvent } from '../modules/hooks/hook-event.entity';
import { HookSession } from '../modules/hooks/hook-session.entity';
import { HitlRequest } from '../modules/hitl/hitl-request.entity';
import { HitlReview } from '../modules/hitl/hitl-review.entity';
import { Message } from '../modules/messages/message.entity';
import { MessageCursor } from '../modules/messages/message-cursor.entity';
import { NotifySettings } from '../modules/notifications/notify-settings.entity';
import { WorkspaceNotifySettings } from '../modules/notifications/workspace-notify-settings.entity';
import { WorkspaceConnection } from '../modules/setup/workspace-connection.entity';
import { Project } from '../modules/projects/project.entity';
import { ProjectSettingsRow } from '../modules/project-settings/project-settings.entity';
import { ProfileLayer } from '../modules/profile-layers/profile-layer.entity';
import { ProfileLayerRevision } from '../modules/profile-layers/profile-layer-revision.entity';
import { ProfileSessionBaseline } from '../modules/profile-layers/profile-session-baseline.entity';
import { FileLock } from '../modules/sessions/file-lock.entity';
import { SessionNotice } from '../modules/sessions/session-notice.entity';
import { SprintItemVerification } from '../modules/sprint/sprint-item-verification.entity';
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
import { CodebaseMap } from '../modules/knowledge/codebase-map.entity';
import { ProjectNote } from '../modules/notes/project-note.entity';
import { ProjectFile } from '../modules/projects/project-file.entity';
import { Task } from '../modules/tasks/task.entity';
import { WorkspaceDecision } from '../modules/workspace-layer/workspace-decision.entity';
import { WorkspaceBlogPost } from '../modules/workspace-layer/workspace-blog-post.entity';
import { WorkspaceNote } from '../modules/workspace-layer/workspace-note.entity';
import { WorkspaceSettingsRow } from '../modules/workspace-layer/workspace-settings.entity';
import { UsageSettingsRow } from '../modules/billing/usage-settings.entity';
import { WorkspaceSprintItem } from '../modules/workspace-layer/workspace-sprint-item.entity';
import { ExecutorRun } from '../modules/executor/executor-run.entity';
import { Experiment } from '../modules/executor/experiment.entity';
import { ExperimentEvent } from '../modules/executor/experiment-event.entity';
import { OrphanReaperState } from '../modules/executor/orphan-reaper-state.entity';
import { RegisteredMachine } from '../modules/executor/registered-machine.entity';
import { Worktree } from '../modules/executor/worktree.entity';
import { McpTaskRow } from '../mcp/tasks/mcp-task.entity';
import { A2aTask } from '../modules/a2a/a2a-task.entity';
import { WorkspaceProposal } from '../modules/proposals/workspace-proposal.entity';
import { DocumentPeek } from '../modules/agent-interfaces/document-peek.entity';
import { PkgGuardRule } from '../modules/agent-interfaces/pkg-guard-rule.entity';

/** Entities stored in each tenant's database. A module adding a table adds its entity here. */
export const TENANT_ENTITIES = [
  Project,
  Session,
  FileLock,
  SessionNotice,
  SprintItemVerification,
  ProjectSettingsRow,
  HitlRequest,
  HitlReview,
  Message,
  MessageCursor,
  NotifySettings,
  WorkspaceNotifySettings,
  WorkspaceConnection,
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
  WorkspaceBlogPost,
  WorkspaceDecision,
  WorkspaceSprintItem,
  WorkspaceSettingsRow,
  UsageSettingsRow,
  TunnelSettingsRow,
  ProjectFile,
  ProfileLayer,
  ProfileLayerRevision,
  ProfileSessionBaseline,
  AiLogEvent,
  AiLogExportConfig,
  AiLogExportState,
  ProjectCodehost,
  CodebaseMap,
  RegisteredMachine,
  Experiment,
  ExperimentEvent,
  ExecutorRun,
  Worktree,
  OrphanReaperState,
  McpTaskRow,
  A2aTask,
  WorkspaceProposal,
  DocumentPeek,
  PkgGuardRule,
  McpSessionRow,
  McpSessionEvent,
  McpSubscription,
  McpElicitation,
];
