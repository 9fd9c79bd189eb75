import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { ProbeResult } from '../../../libs/pubsub';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { isUniqueViolation } from '../../common/errors/db-errors';
import { RequestError } from '../../common/errors/request-error';
import { TurnBatches } from '../../common/lifecycle/turn-batches';
import { SessionNotifiedEvent } from '../../common/events/domain-event-map';
import { DomainEvents } from '../../common/events/domain-events';
import { requireProject } from '../projects/require-project.util';
import { PushService } from '../push/push.service';
import { Session } from '../sessions/session.entity';
import { SessionError } from '../sessions/sessions.errors';
import { ListMessagesQueryDto } from './dto/list-messages-query.dto';
import { ReaderDto } from './dto/reader.dto';
import { ReceiveMessagesDto } from './dto/receive-messages.dto';
import { SendMessageDto } from './dto/send-message.dto';
import { Message, RecipientKind } from './message.entity';
import { MessagePage, MessageView, toMessageView } from './message.view';
import { MessageError } from './messages.errors';
import { MessageStore, PendingOf, Reader, readerKey } from './message-store';

export interface SendResult extends MessageView {
  /** true when the idempotency key had already stored this message: nothing new was stored. */
  duplicate: boolean;
}

export interface ReceiveResult {
  messages: MessageView[];
  /** Everything of this reader up to here is acknowledged. */
  acked_through: number;
}

const DEFAULT_LIMIT = 50;
/** Messages one shared read lists before it wakes every waiting reader instead. */
const CHANGES_LISTED = 1000;
/** Readers one statement of a batched read answers for. */
const READERS_PER_STATEMENT = 500;

/** Topic that wakes one reader's waits. */
export const readerTopic = (projectId: string, reader: Reader) => `msg:${projectId}:${reader.kind === 'session' ? 's' : 'a'}:${reader.name}`;
/** Topic that wakes every reader of a project (a project-wide message). */
export const projectTopic = (projectId: string) => `msg:${projectId}:*`;

/**
 * Messages between a project's sessions and named agents (spec §6.3). Stored
 * first, in the tenant's database, then announced through push; a push that
 * cannot go out loses nothing, the receiver's next read finds the message.
 * Delivery is at least once: a message comes back on every receive until the
 * reader acknowledges it (cumulatively, by seq), and never after.
 */
@Injectable()
export class MessagesService implements OnModuleInit {
  private readonly store: MessageStore;
  /** Pending reads gathered until the end of a turn of the event loop, per tenant, project and limit. */
  private readonly pendingReads = new TurnBatches<PendingGroup, string, Reader, PendingOf>((group, readers) => this.readPending(group, [...readers.values()]));
  private readonly logger = new Logger('messages');

  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly push: PushService,
    private readonly domainEvents: DomainEvents,
  ) {
    this.store = new MessageStore(db.dialect);
  }

  onModuleInit() {
    this.domainEvents.on('session.notified', (event) => this.sendNotice(event));
  }

  /**
   * A session lost a lock or a claim: a message from Baton to that session alone, so a session
   * waiting in receive_messages wakes.
   */
  private async sendNotice(event: SessionNotifiedEvent): Promise<void> {
    const { notice } = event;
    try {
      await this.send(event.project_id, {
        to_session_id: event.session_id,
        from: 'baton',
        body: `[${notice.kind}] ${notice.detail}`,
      });
    } catch (error) {
      // The session closed meanwhile: nobody is left to wake.
      this.logger.warn({ msg: 'notice message not sent', session_id: event.session_id, kind: notice.kind, error: (error as Error).message });
    }
  }

  async send(projectId: string, input: SendMessageDto): Promise<SendResult> {
    const target = targetOf(input);
    let result: SendResult;
    try {
      result = await this.db.transaction((m) => this.sendIn(m, projectId, input, target));
    } catch (error) {
      // Two sends with one key raced: the other stored it first.
      if (!input.idempotency_key || !isUniqueViolation(error)) throw error;
      result = await this.db.transaction(async (m) => {
        const existing = await m.findOneBy(Message, { project_id: projectId, idempotency_key: input.idempotency_key });
        if (!existing) throw error;
        return replay(existing, input, target);
      });
    }
    if (!result.duplicate) {
      const topics = target.kind === 'project' ? [projectTopic(projectId)] : [readerTopic(projectId, { kind: target.kind, name: target.recipient as string })];
      const { duplicate: _, ...message } = result;
      this.push.publish(currentTenant().tenantId, { wake: topics, event: { event: 'message_sent', data: { message } } });
    }
    return result;
  }

  /**
   * Acknowledges up to `ack_through` when given, then returns the reader's
   * unacknowledged messages, oldest first; with `wait_seconds` and none
   * waiting, waits (woken by push, else polling) until one arrives.
   */
  async receive(projectId: string, input: ReceiveMessagesDto): Promise<ReceiveResult> {
    const reader = readerOf(input);
    const limit = input.limit ?? DEFAULT_LIMIT;
    // A reader that has read before and acknowledges nothing only reads here: no write transaction,
    // so a burst of thousands of agents starting their waits does not queue on the pool's connections.
    const known = input.ack_through === undefined && (await this.db.read((m) => this.readerState(m, projectId, reader))).cursor;
    if (!known) {
      await this.db.transaction(async (m) => {
        await this.prepareReader(m, projectId, reader);
        if (input.ack_through !== undefined) await this.ackIn(m, projectId, reader, input.ack_through);
      });
    }
    const result = await this.push.waitFor(
      currentTenant().tenantId,
      [readerTopic(projectId, reader), projectTopic(projectId)],
      this.push.waitMs(input.wait_seconds),
      async () => {
        const { rows, ackedSeq, lastSeq } = await this.pendingOf(projectId, reader, limit);
        return { messages: rows.map(toMessageView), acked_through: ackedSeq, lastSeq };
      },
      (r) => r.messages.length > 0,
      { scope: `msg:${projectId}`, probe: (since) => this.changesSince(projectId, since), version: (r) => r.lastSeq },
    );
    return { messages: result.messages, acked_through: result.acked_through };
  }

  /**
   * A reader's pending messages. Reads of one project asked for in the same turn of the event
   * loop (the receivers one broadcast woke) go out as one statement, answered per reader.
   */
  private pendingOf(projectId: string, reader: Reader, limit: number): Promise<PendingOf> {
    return (
      this.pendingReads
        .ask(`${currentTenant().tenantId}|${projectId}|${limit}`, { projectId, limit }, readerKey(reader), reader)
        // A reader without a cursor has nothing yet (as `pending` answers).
        .then((answer) => answer ?? { rows: [], ackedSeq: 0, lastSeq: 0 })
    );
  }

  /** Runs in the async context of the batch's first ask (TurnBatches): the tenant whose project it reads. */
  private async readPending({ projectId, limit }: PendingGroup, readers: Reader[]): Promise<Map<string, PendingOf>> {
    if (readers.length === 1) {
      const one = await this.db.read((m) => this.store.pending(m, projectId, readers[0], limit));
      return new Map([[readerKey(readers[0]), one]]);
    }
    const answers = new Map<string, PendingOf>();
    await this.db.read(async (m) => {
      for (let i = 0; i < readers.length; i += READERS_PER_STATEMENT) {
        const part = await this.store.pendingMany(m, projectId, readers.slice(i, i + READERS_PER_STATEMENT), limit);
        for (const [k, v] of part) answers.set(k, v);
      }
    });
    return answers;
  }

  /**
   * The shared read of a project's waiting readers: the topics of the messages after `since`
   * (each reader's own and the project's), with the seq of the latest of each. Past
   * CHANGES_LISTED messages it answers `all`: every reader that has not seen the last one reads.
   */
  private async changesSince(projectId: string, since: number): Promise<ProbeResult> {
    const { lastSeq, rows } = await this.db.read((m) => this.store.changesSince(m, projectId, since, CHANGES_LISTED));
    if (rows.length >= CHANGES_LISTED) return { version: lastSeq, changed: 'all' };
    const changed = new Map<string, number>();
    for (const row of rows) {
      const topic = row.kind === 'project' ? projectTopic(projectId) : readerTopic(projectId, { kind: row.kind, name: row.recipient as string });
      changed.set(topic, row.seq);
    }
    return { version: lastSeq, changed };
  }

  /** Acknowledges every message of the reader up to `through` (at most the project's last seq). */
  async ack(projectId: string, input: ReaderDto & { ack_through: number }): Promise<{ acked_through: number }> {
    const reader = readerOf(input);
    const acked = await this.db.transaction(async (m) => {
      await this.prepareReader(m, projectId, reader);
      return this.ackIn(m, projectId, reader, input.ack_through);
    });
    return { acked_through: acked };
  }

  /** Every message of the project, newest first, without moving any reader's cursor (what a person reads on the dashboard). */
  async list(projectId: string, query: ListMessagesQueryDto): Promise<MessagePage> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const rows = await this.db.read(async (m) => {
      await requireProject(m, projectId);
      return this.store.recent(m, projectId, limit + 1, query.before_seq);
    });
    const messages = rows.slice(0, limit).map(toMessageView);
    return { messages, next_before_seq: rows.length > limit ? messages[messages.length - 1].seq : null };
  }

  private async sendIn(m: EntityManager, projectId: string, input: SendMessageDto, target: Target): Promise<SendResult> {
    await requireProject(m, projectId);
    if (target.kind === 'session') {
      const session = await m.findOneBy(Session, { id: target.recipient as string, project_id: projectId });
      if (!session) throw MessageError.sessionNotFound(target.recipient as string, projectId);
      if (session.status !== 'active') throw MessageError.recipientClosed(session.id);
    }
    const senderSession = input.session_id ? await m.findOneBy(Session, { id: input.session_id.toLowerCase(), project_id: projectId }) : null;
    if (input.session_id && !senderSession) throw MessageError.sessionNotFound(input.session_id, projectId);
    if (senderSession && senderSession.status !== 'active') throw SessionError.closed(senderSession.id);
    if (input.idempotency_key) {
      const existing = await m.findOneBy(Message, { project_id: projectId, idempotency_key: input.idempotency_key });
      if (existing) return replay(existing, input, target);
    }
    const message: Message = {
      id: randomUUID(),
      project_id: projectId,
      seq: String(await this.store.nextSeq(m, projectId)),
      sender: input.from ?? senderSession?.name ?? null,
      sender_session_id: senderSession?.id ?? null,
      recipient_kind: target.kind,
      recipient: target.recipient,
      body: input.body,
      idempotency_key: input.idempotency_key ?? null,
      created_at: this.clock.now(),
    };
    await m.insert(Message, message);
    return { ...toMessageView(message), duplicate: false };
  }

  /** Checks the project and the reader, and gives a first-time reader its cursor. */
  /** Checks that the project (and a session reader's session) exists; the session, and whether the reader has a cursor yet. */
  private async readerState(m: EntityManager, projectId: string, reader: Reader): Promise<{ session: Session | null; cursor: boolean }> {
    await requireProject(m, projectId);
    let session: Session | null = null;
    if (reader.kind === 'session') {
      session = await m.findOneBy(Session, { id: reader.name, project_id: projectId });
      if (!session) throw MessageError.sessionNotFound(reader.name, projectId);
    }
    return { session, cursor: await this.store.hasCursor(m, projectId, reader) };
  }

  private async prepareReader(m: EntityManager, projectId: string, reader: Reader) {
    const { session, cursor } = await this.readerState(m, projectId, reader);
    if (cursor) return;
    // Project-wide messages count from when a session started, or from an agent's first read.
    const start = session ? await this.store.lastSeqBefore(m, projectId, session.created_at) : await this.store.lastSeq(m, projectId);
    await this.store.ensureCursor(m, projectId, reader, start, this.clock.now());
  }

  private async ackIn(m: EntityManager, projectId: string, reader: Reader, through: number): Promise<number> {
    const last = await this.store.lastSeq(m, projectId);
    return this.store.ack(m, projectId, reader, Math.min(through, last), this.clock.now());
  }
}

/** The readers whose pending messages one statement reads: of one project (of the batch's tenant), with one limit. */
interface PendingGroup {
  projectId: string;
  limit: number;
}

interface Target {
  kind: RecipientKind;
  recipient: string | null;
}

function targetOf(input: SendMessageDto): Target {
  const given = [input.to_session_id !== undefined, input.to_agent !== undefined, input.broadcast === true].filter(Boolean).length;
  if (given !== 1) throw RequestError.invalidInput('give exactly one of to_session_id, to_agent or broadcast: true');
  if (input.to_session_id) return { kind: 'session', recipient: input.to_session_id.toLowerCase() };
  if (input.to_agent) return { kind: 'agent', recipient: input.to_agent };
  return { kind: 'project', recipient: null };
}

function readerOf(input: ReaderDto): Reader {
  if ((input.session_id === undefined) === (input.agent === undefined)) throw RequestError.invalidInput('give exactly one of session_id or agent');
  return input.session_id ? { kind: 'session', name: input.session_id.toLowerCase() } : { kind: 'agent', name: input.agent as string };
}

/** The stored message of a repeated key, when the repeat is the same message; otherwise a conflict. */
function replay(existing: Message, input: SendMessageDto, target: Target): SendResult {
  const same =
    existing.recipient_kind === target.kind &&
    existing.recipient === target.recipient &&
    existing.body === input.body &&
    (existing.sender_session_id ?? null) === (input.session_id?.toLowerCase() ?? null) &&
    (input.from === undefined || existing.sender === input.from);
  if (!same) throw MessageError.idempotencyConflict(existing.idempotency_key as string, existing.id);
  return { ...toMessageView(existing), duplicate: true };
}
