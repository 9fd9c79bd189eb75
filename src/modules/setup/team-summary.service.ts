import { Inject, Injectable } from '@nestjs/common';
import { TenantDb } from '../../../libs/tenancy';
import { Principal } from '../../common/auth/principal';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { MemberView } from '../members/member.view';
import { MembersService } from '../members/members.service';
import { Project } from '../projects/project.entity';
import { Session } from '../sessions/session.entity';

export interface TeamSummary {
  /** Hosted: the workspace's members and pending invitations (as GET /workspace/members); self-hosted: none, no one has an account. */
  members: Pick<MemberView, 'email' | 'name' | 'role' | 'status'>[];
  /** Projects by organization status. */
  projects: { total: number; active: number; parked: number; archived: number };
  /** Agent sessions now active, and in how many projects. */
  active_sessions: number;
  projects_with_active_sessions: number;
}

/** GET /team/summary: who is in the workspace, and what it is working on now. */
@Injectable()
export class TeamSummaryService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: TenantDb,
    private readonly members: MembersService,
  ) {}

  async summary(principal: Principal | undefined): Promise<TeamSummary> {
    const people = this.config.isHosted ? await this.members.list(principal) : [];
    const [statuses, sessions] = await this.db.read((m) =>
      Promise.all([
        m
          .createQueryBuilder(Project, 'p')
          .select('p.organization_status', 'status')
          .addSelect('count(*)', 'n')
          .groupBy('p.organization_status')
          .getRawMany<{ status: string; n: string }>(),
        m
          .createQueryBuilder(Session, 's')
          .select('count(*)', 'n')
          .addSelect('count(DISTINCT s.project_id)', 'projects')
          .where("s.status = 'active'")
          .getRawOne<{ n: string; projects: string }>(),
      ]),
    );
    const by = Object.fromEntries(statuses.map((r) => [r.status, Number(r.n)]));
    return {
      members: people.map(({ email, name, role, status }) => ({ email, name, role, status })),
      projects: { total: statuses.reduce((sum, r) => sum + Number(r.n), 0), active: by.active ?? 0, parked: by.parked ?? 0, archived: by.archived ?? 0 },
      active_sessions: Number(sessions?.n ?? 0),
      projects_with_active_sessions: Number(sessions?.projects ?? 0),
    };
  }
}
