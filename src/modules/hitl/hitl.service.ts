import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, In } from 'typeorm';
import { ProbeResult } from '../../../libs/pubsub';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { dashboardPages } from '../../common/dashboard-links';
import { PublicUrl } from '../../common/public-url';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { NotificationsService } from '../notifications/notifications.service';
import { requireProject } from '../projects/require-project.util';
import { ProfileResolver } from '../profile-layers/profile-resolver.service';
import { PushService } from '../push/push.service';
import { Session } from '../sessions/session.entity';
import { CreateHitlDto } from './dto/create-hitl.dto';
import { ListHitlQueryDto } from './dto/list-hitl-query.dto';
import { UpdateHitlDto } from './dto/update-hitl.dto';
import { HitlRequest, HitlStatus } from './hitl-request.entity';
import { HitlView, toHitlView } from './hitl-request.view';
import { HitlError } from './hitl.errors';
import { HitlDecisionHooks, isApproval } from './hitl-decision-hooks';
import { findById } from '../../database/find-by-id';

/** What an auto-answered request says (the project set hitl_auto_answer). */
export const AUTO_ANSWER = 'Answered automatically: this project has hitl_auto_answer on. Proceed with your best judgement and record the decision you take.';

const DEFAULT_LIMIT = 50;

const HITL_PREFIX = 'hitl:';
export const hitlTopic = (id: string) => `${HITL_PREFIX}${id}`;
/** Questions one statement of the shared read checks. */
const SETTLED_BATCH = 500;

/**
 * Human-in-the-loop questions (spec §2, §3, §4 HITL). A question is a ticket:
 * creating it returns at once (agents' tool calls time out after about a
 * minute), and `get` can wait for the answer, woken through push the moment
 * an answer lands on any instance, else by polling.
 */
@Injectable()
export class HitlService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly profiles: ProfileResolver,
    private readonly push: PushService,
    private readonly notifications: NotificationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly publicUrl: PublicUrl,
    private readonly hooks: HitlDecisionHooks,
  ) {}

  async create(projectId: string, input: CreateHitlDto): Promise<HitlView> {
    const request = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const session = await m.findOneBy(Session, { id: input.session_id, project_id: projectId });
      if (!session) throw HitlError.sessionNotInProject(input.session_id, projectId);
      // As resolved for the asking session: a session or user layer may tighten (or, with a reason, loosen) the project's.
      const auto = (await this.profiles.sessionField(m, projectId, session, 'hitl_auto_answer')) === true && !input.require_human;
      const now = this.clock.now();
      const row: HitlRequest = {
        id: randomUUID(),
        project_id: projectId,
        session_id: session.id,
        question: input.question,
        context: input.context ?? null,
        urgency: input.urgency ?? 'normal',
        status: auto ? 'answered' : 'pending',
        answer: auto ? AUTO_ANSWER : null,
        answered_by: auto ? 'auto' : null,
        assigned_to: input.assigned_to ?? session.human_id,
        created_at: now,
        answered_at: auto ? now : null,
      };
      await m.insert(HitlRequest, row);
      return row;
    });
    const view = toHitlView(request);
    this.push.publish(currentTenant().tenantId, { wake: [hitlTopic(view.id)], event: { event: 'hitl_created', data: { request: view } } });
    if (view.status === 'pending') {
      this.notifications.dispatch(
        projectId,
        {
          title: `Action needed (${view.urgency.toUpperCase()})`,
          body: `${view.question.slice(0, 200)}\n${this.publicUrl.to(dashboardPages.hitl(projectId))}`,
          event: 'hitl_created',
          source: 'baton',
          project_id: projectId,
          hitl_id: view.id,
          urgency: view.urgency,
          assigned_to: view.assigned_to,
        },
        view.urgency === 'blocking' ? 'urgent' : view.urgency === 'high' ? 'high' : 'default',
      );
    }
    return view;
  }

  /** One request; with `waitS`, returns as soon as it is no longer pending or when the (capped) wait is over. */
  async get(id: string, waitS?: number): Promise<HitlView> {
    const request = await this.push.waitFor(
      currentTenant().tenantId,
      [hitlTopic(id)],
      this.push.waitMs(waitS),
      () => this.db.read((m) => this.require(m, id)),
      (r) => r.status !== 'pending',
      { scope: 'hitl', probe: (_since, topics) => this.settledOf(topics), version: () => 0 },
    );
    return toHitlView(request);
  }

  /**
   * The shared read of a tenant's waiting questions: which of them are answered, dismissed or
   * gone (their waiters read again and answer). The state is read, not a change, so a waiter
   * seen at version 0 is woken whenever its question is settled.
   */
  private async settledOf(topics: string[]): Promise<ProbeResult> {
    const ids = topics.filter((t) => t.startsWith(HITL_PREFIX)).map((t) => t.slice(HITL_PREFIX.length));
    const pending = new Set<string>();
    await this.db.read(async (m) => {
      for (let i = 0; i < ids.length; i += SETTLED_BATCH) {
        const rows = await m.find(HitlRequest, { select: { id: true }, where: { id: In(ids.slice(i, i + SETTLED_BATCH)), status: 'pending' } });
        for (const row of rows) pending.add(row.id.toLowerCase());
      }
    });
    return { version: 0, changed: new Map(ids.filter((id) => !pending.has(id.toLowerCase())).map((id) => [hitlTopic(id), 1])) };
  }

  /** Requests of one project, or of every project, newest first. */
  async list(projectId: string | undefined, query: ListHitlQueryDto): Promise<HitlView[]> {
    const status = query.status ?? 'pending';
    const rows = await this.db.read(async (m) => {
      if (projectId) await requireProject(m, projectId);
      return m.find(HitlRequest, {
        where: { ...(projectId ? { project_id: projectId } : {}), ...(status === 'all' ? {} : { status: In([status]) }) },
        order: { created_at: 'DESC', id: 'ASC' },
        take: query.limit ?? DEFAULT_LIMIT,
      });
    });
    return rows.map(toHitlView);
  }

  /**
   * Answers (default) or dismisses a pending request; refused once it is
   * answered or dismissed. A change waiting on the request (HitlDecisionHooks)
   * is applied or dropped first; when it can no longer be applied the request
   * is dismissed with the reason and the refusal is thrown.
   */
  async update(id: string, input: UpdateHitlDto): Promise<HitlView> {
    const action = input.action ?? 'answer';
    if (action === 'answer' && input.answer === undefined) throw HitlError.answerRequired();
    const pending = await this.db.read((m) => this.require(m, id));
    if (pending.status !== 'pending') throw HitlError.notPending(id, pending.status);
    const outcome = await this.hooks.run(pending, { action, answer: input.answer ?? null, approves: action === 'answer' && isApproval(input.answer) });
    if (outcome) {
      await this.decide(id, 'dismiss', outcome.refuse.answer, input.answered_by);
      throw outcome.refuse.error;
    }
    return this.decide(id, action, input.answer, input.answered_by);
  }

  private async decide(id: string, action: 'answer' | 'dismiss', answer: string | undefined, answeredBy: string | undefined): Promise<HitlView> {
    const next: HitlStatus = action === 'answer' ? 'answered' : 'dismissed';
    const request = await this.db.transaction(async (m) => {
      const result = await m.update(
        HitlRequest,
        { id, status: 'pending' },
        { status: next, answer: answer ?? null, answered_by: answeredBy ?? this.config.humanId ?? 'human', answered_at: this.clock.now() },
      );
      const row = await this.require(m, id);
      if (!result.affected) throw HitlError.notPending(id, row.status);
      return row;
    });
    const view = toHitlView(request);
    this.push.publish(currentTenant().tenantId, {
      wake: [hitlTopic(id)],
      event: { event: next === 'answered' ? 'hitl_answered' : 'hitl_dismissed', data: { request: view } },
    });
    return view;
  }

  private async require(m: EntityManager, id: string): Promise<HitlRequest> {
    const request = await findById(m, HitlRequest, id);
    if (!request) throw HitlError.notFound(id);
    return request;
  }
}
