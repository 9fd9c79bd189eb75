import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Principal } from '../../common/auth/principal';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { DEFAULT_PAGE_SIZE, PageQueryDto } from '../tasks/dto/page-query.dto';
import { CreateWorkspaceBlogPostDto } from './dto/create-workspace-blog-post.dto';
import { WorkspaceBlogPost } from './workspace-blog-post.entity';
import { toWorkspaceBlogPostView, WorkspaceBlogPostView } from './workspace-blog-post.view';
import { WorkspaceLayerError } from './workspace-layer.errors';

/**
 * The workspace's own blog (not the instance's public one): every credential of the workspace
 * reads it; hosted, only its owners and admins write, self-hosted the operator does.
 */
@Injectable()
export class WorkspaceBlogService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  async list(query: PageQueryDto): Promise<{ posts: WorkspaceBlogPostView[]; total: number }> {
    const [posts, total] = await this.db.read((m) =>
      m.findAndCount(WorkspaceBlogPost, { order: { created_at: 'DESC', id: 'DESC' }, take: query.limit ?? DEFAULT_PAGE_SIZE, skip: query.offset ?? 0 }),
    );
    return { posts: posts.map(toWorkspaceBlogPostView), total };
  }

  async create(principal: Principal | undefined, input: CreateWorkspaceBlogPostDto): Promise<WorkspaceBlogPostView> {
    const author = await this.writer(principal);
    const post: WorkspaceBlogPost = { id: randomUUID(), title: input.title, body: input.body, author, created_at: this.clock.now() };
    await this.db.transaction((m) => m.insert(WorkspaceBlogPost, post));
    return toWorkspaceBlogPostView(post);
  }

  /** The address of the owner or admin writing (hosted), null self-hosted; anyone else is refused. */
  private async writer(principal: Principal | undefined): Promise<string | null> {
    if (!this.config.isHosted) return null;
    // A session carries the person; an API token the person who made it, when one did.
    if (!principal?.accountId) throw WorkspaceLayerError.blogWriterRequired();
    const rows: { role: string; email: string }[] = await this.source.query(
      "SELECT m.role, m.email FROM control.memberships m WHERE m.tenant_id = $1 AND m.account_id = $2 AND m.status = 'active'",
      [principal.tenantId, principal.accountId],
    );
    const member = rows[0];
    if (!member || (member.role !== 'owner' && member.role !== 'admin')) throw WorkspaceLayerError.blogWriterRequired(member?.role);
    return member.email;
  }
}
