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
import { FileLock } from '../modules/sessions/file-lock.entity';
import { Session } from '../modules/sessions/session.entity';
import { SprintItem } from '../modules/sprint/sprint-item.entity';
import { SprintItemResource } from '../modules/sprint/sprint-item-resource.entity';
import { SprintTrack } from '../modules/sprint/sprint-track.entity';
import { SprintWaveSummary } from '../modules/sprint/sprint-wave-summary.entity';
import { ProfileLayer } from '../modules/profile-layers/profile-layer.entity';
import { ProfileLayerRevision } from '../modules/profile-layers/profile-layer-revision.entity';
import { ProfileSessionBaseline } from '../modules/profile-layers/profile-session-baseline.entity';

/** Entities stored in each tenant's database. A module adding a table adds its entity here. */
export const TENANT_ENTITIES = [Project, Session, FileLock, ProjectSettingsRow, HitlRequest, Message, MessageCursor, NotifySettings, SessionNote, Handoff, HandoffCorrection, QueuedSession, HookSession, HookEvent, SprintItem, SprintItemResource, SprintTrack, SprintWaveSummary, ProfileLayer, ProfileLayerRevision, ProfileSessionBaseline, AiLogEvent, AiLogExportConfig, AiLogExportState];
