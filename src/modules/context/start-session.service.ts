import { Injectable, Logger } from '@nestjs/common';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { StartSessionExtras } from '../../common/extensions/start-session-extras';
import { RequestError } from '../../common/errors/request-error';
import { ConsumedHandoff, HandoffLedger, HandoffRef } from '../handoff/handoff-ledger.service';
import { HostedDefaultsStore } from '../profile-layers/hosted-defaults.store';
import { requireProject } from '../projects/require-project.util';
import { FileLocksService } from '../sessions/file-locks.service';
import { SessionKind } from '../sessions/session.entity';
import { SessionView } from '../sessions/session.view';
import { SessionsService } from '../sessions/sessions.service';
import { SessionError } from '../sessions/sessions.errors';
import { ContextBlockService } from './context-block.service';
import { ContextMode } from './context.constants';
import { StartSessionDto } from './dto/start-session.dto';

export interface StartSessionAnswer {
  session_id: string;
  session: SessionView;
  /** True when an existing session was picked up again (an assistant's resumed session, through the hook). */
  resumed: boolean;
  /** One line per file another live session holds: the file, the holder and its last_seen. */
  file_warnings: string[];
  context_block: string;
  /** The handoff the session started from (when started with handoff_token). */
  handoff?: ConsumedHandoff;
  /** Fields other modules add (StartSessionExtras), each under the name it registered. */
  [extra: string]: unknown;
}

export interface DescribeOptions {
  resumed: boolean;
  /** The handoff to start from: its token, or its id (the one start_session names as waiting). */
  handoff?: HandoffRef;
  contextMode?: ContextMode;
  contextCapBytes?: number;
}

/**
 * start_session in one call: registers the session, then answers what it
 * needs to begin — its id, the files other sessions hold, the context block,
 * and the fields other modules contribute.
 */
@Injectable()
export class StartSessionService {
  private readonly logger = new Logger('start-session');

  constructor(
    private readonly db: TenantDb,
    private readonly sessions: SessionsService,
    private readonly locks: FileLocksService,
    private readonly blocks: ContextBlockService,
    private readonly extras: StartSessionExtras,
    private readonly ledger: HandoffLedger,
    private readonly hostedDefaults: HostedDefaultsStore,
    private readonly events: RealtimeEvents,
  ) {}

  async start(
    projectId: string,
    input: StartSessionDto,
    kind: Exclude<SessionKind, 'handoff'>,
    options: Omit<DescribeOptions, 'resumed' | 'handoff'> = {},
  ): Promise<StartSessionAnswer> {
    if (input.handoff_token && input.handoff_id) throw RequestError.invalidInput('give handoff_token or handoff_id, not both');
    const handoff: HandoffRef | undefined = input.handoff_token ? { token: input.handoff_token } : input.handoff_id ? { handoff_id: input.handoff_id } : undefined;
    const session = await this.sessions.register({ project_id: projectId, name: input.name, human_id: input.human_id, kind });
    try {
      const answer = await this.describe(session, { ...options, resumed: false, handoff });
      if (answer.handoff) {
        const data = { project_id: projectId, handoff_id: answer.handoff.id, session_id: session.id, carried: answer.handoff.carried };
        this.events.publish({ tenantId: currentTenant().tenantId, event: 'handoff_accepted', data });
      }
      return answer;
    } catch (error) {
      // A refused handoff means the session should not have started: it is closed again.
      if (handoff) {
        await this.sessions.close(session.id).catch((closeError: Error) => this.logger.error({ msg: 'could not close a refused session', error: closeError.message }));
      }
      throw error;
    }
  }

  /** Picks up an active session again: refreshes its last_seen and answers as start_session does. */
  async resume(sessionId: string, options: Omit<DescribeOptions, 'resumed' | 'handoff'> = {}): Promise<StartSessionAnswer> {
    const beat = await this.sessions.heartbeat(sessionId);
    if (!beat.ok) throw SessionError.closed(sessionId);
    return this.describe(await this.sessions.get(sessionId), { ...options, resumed: true });
  }

  private async describe(session: SessionView, options: DescribeOptions): Promise<StartSessionAnswer> {
    // The profile extra resolves hosted defaults: bring them up to date before holding a tenant connection.
    await this.hostedDefaults.warm();
    return this.db.transaction(async (m) => {
      const project = await requireProject(m, session.project_id);
      const handoff = options.handoff ? await this.ledger.consume(m, project.id, options.handoff, session.id) : undefined;
      const fileWarnings = await this.locks.warningsFor(m, project.id, session.id);
      const context = await this.blocks.build(m, project, options.contextMode ?? 'full', options.contextCapBytes);
      const extras = await this.extras.collect(m, { projectId: project.id, sessionId: session.id, humanId: session.human_id });
      // Baton's own fields win over an extra of the same name.
      return {
        ...extras,
        session_id: session.id,
        session,
        resumed: options.resumed,
        file_warnings: fileWarnings,
        context_block: context.text,
        // A handoff nobody has started from yet: this session may take it with handoff_id.
        waiting_handoff: await this.ledger.waiting(m, project.id),
        ...(handoff ? { handoff } : {}),
      };
    });
  }
}
