import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { currentTenant, requestActorAccountId, SecretBox, TenantDb } from '../../../libs/tenancy';
import { Principal } from '../../common/auth/principal';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { sealerFor } from '../../common/sealer';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { CodehostConnections } from '../auth-providers/codehost-connections.service';
import { CodehostAccess as AccessCap } from '../members/member-rights.util';
import { requireProject } from '../projects/require-project.util';
import { CodehostClient } from './codehost.client';
import { CodehostError } from './codehost.errors';
import { CodehostRepository, repositoryView } from './codehost-repository.view';
import { CodehostStatusView, statusView } from './codehost-status.view';
import { CodehostAccountDto } from './dto/codehost-account.dto';
import { ConnectCodehostDto } from './dto/connect-codehost.dto';
import { ProjectCodehost } from './project-codehost.entity';
import { repoPath } from './repo-path.util';

/** The access a call uses: the repository and an opened token (kept for the call only). */
export interface CodehostAccess {
  owner: string;
  name: string;
  login: string;
  token: string;
  /**
   * The most the workspace lets this access do. Hosted: the tighter of the linking member's
   * codehost_access and the caller's (the signed-in person, or the maker of the API token);
   * self-hosted: write.
   */
  cap: AccessCap;
  /** Whose codehost_access set `cap`: the linking member's, or the caller's own when it is tighter. */
  capBy: 'owner' | 'caller';
}

/** codehost_access from the least to the most it allows. */
const CAP_ORDER: AccessCap[] = ['none', 'read', 'write'];

/** Whose access a link stores: hosted, a person's connection; self-hosted, the sealed token. */
interface Credential {
  login: string;
  token: string;
  accountId: string | null;
  tokenSealed: string | null;
}

/**
 * Which repository a project is linked to and whose access it uses (docs/decisions.md, "Code-host
 * integration"). Hosted: a signed-in person's connection, its token opened from the control plane
 * only when a call needs it. Self-hosted: a personal access token sent once, sealed in the tenant's
 * data. Nothing here returns or logs a token.
 */
@Injectable()
export class CodehostLinks {
  private readonly box: SecretBox;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly client: CodehostClient,
    private readonly connections: CodehostConnections,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
  ) {
    this.box = sealerFor(config, 'codehost-token');
  }

  async connect(principal: Principal | undefined, projectId: string, input: ConnectCodehostDto): Promise<CodehostStatusView> {
    await this.db.read((m) => requireProject(m, projectId));
    const credential = await this.credentialOf(principal, input);
    const [owner, name] = input.repo.split('/');
    const repo = await this.repository({ owner, name, token: credential.token });
    const now = this.clock.now();
    const link = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const previous = await m.findOneBy(ProjectCodehost, { project_id: projectId });
      const row: ProjectCodehost = {
        project_id: projectId,
        repo_owner: repo.owner.login,
        repo_name: repo.name,
        account_login: credential.login,
        account_id: credential.accountId,
        token_sealed: credential.tokenSealed,
        connected_at: previous?.connected_at ?? now,
        updated_at: now,
      };
      await m.save(ProjectCodehost, row);
      return row;
    });
    return statusView(link, repositoryView(repo), null);
  }

  /** PATCH .../codehost/account: the same repository through another connection (hosted) or a new token (self-hosted). */
  async changeAccount(principal: Principal | undefined, projectId: string, input: CodehostAccountDto): Promise<CodehostStatusView> {
    const link = await this.db.read(async (m) => {
      await requireProject(m, projectId);
      return m.findOneBy(ProjectCodehost, { project_id: projectId });
    });
    if (!link) throw CodehostError.notConnected(projectId);
    return this.connect(principal, projectId, { ...input, repo: `${link.repo_owner}/${link.repo_name}` });
  }

  /** Forgets the link (and, self-hosted, the sealed token). A project not connected is left as it is. */
  async disconnect(projectId: string): Promise<void> {
    await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      await m.delete(ProjectCodehost, { project_id: projectId });
    });
  }

  async status(projectId: string): Promise<CodehostStatusView> {
    const link = await this.linkOf(projectId);
    if (!link) return { connected: false };
    try {
      const access = await this.open(link);
      return statusView(link, repositoryView(await this.repository(access)), null);
    } catch (error) {
      if (error instanceof CodehostError) return statusView(link, null, error.detail);
      throw error;
    }
  }

  /** The project's repository and opened token; 409 when it is not connected. */
  async access(projectId: string): Promise<CodehostAccess> {
    const link = await this.linkOf(projectId);
    if (!link) throw CodehostError.notConnected(projectId);
    return this.open(link);
  }

  /** The repository as the access sees it (its permissions included). */
  repository(access: Pick<CodehostAccess, 'owner' | 'name' | 'token'>): Promise<CodehostRepository> {
    return this.client.request<CodehostRepository>(access.token, { path: repoPath(access), what: `repository ${access.owner}/${access.name}` }).then((a) => a.body);
  }

  private linkOf(projectId: string): Promise<ProjectCodehost | null> {
    return this.db.read(async (m) => {
      await requireProject(m, projectId);
      return m.findOneBy(ProjectCodehost, { project_id: projectId });
    });
  }

  private async open(link: ProjectCodehost): Promise<CodehostAccess> {
    const repo = { owner: link.repo_owner, name: link.repo_name };
    if (link.token_sealed) return { ...repo, login: link.account_login, token: this.box.open(link.token_sealed), cap: 'write', capBy: 'owner' };
    const ownerCap = link.account_id ? await this.capOf(link.account_id) : 'none';
    if (ownerCap === 'none') throw CodehostError.accessCapped(link.account_login, 'none');
    // The caller's own cap binds too: a member capped at read must not write through an owner's link.
    const caller = requestActorAccountId();
    const callerCap = caller && caller !== link.account_id ? await this.capOf(caller) : ownerCap;
    if (callerCap === 'none') throw CodehostError.accessCapped(link.account_login, 'none', 'caller');
    const connection = link.account_id ? await this.connections.tokenOf(link.account_id, link.account_login) : null;
    if (!connection) throw CodehostError.connectionGone(link.account_login);
    const cap = CAP_ORDER.indexOf(callerCap) < CAP_ORDER.indexOf(ownerCap) ? callerCap : ownerCap;
    return { ...repo, login: connection.login, token: connection.token, cap, capBy: cap === ownerCap ? 'owner' : 'caller' };
  }

  /**
   * Hosted: the signed-in person's connection `login`, opened, when the workspace lets them use it
   * (before a project is linked to it: choosing a repository, linking).
   */
  async personConnection(principal: Principal | undefined, login: string): Promise<{ login: string; token: string; accountId: string }> {
    if (principal?.kind !== 'session' || !principal.accountId) throw CodehostError.signedInPersonRequired();
    if ((await this.capOf(principal.accountId)) === 'none') throw CodehostError.accessCapped(login, 'none');
    const connection = await this.connections.tokenOf(principal.accountId, login);
    if (!connection) throw CodehostError.connectionNotFound(login);
    return { ...connection, accountId: principal.accountId };
  }

  /**
   * The codehost_access of the member's active membership of the current workspace: the most their
   * connection may do for its projects; `none` once they have left.
   */
  private async capOf(accountId: string): Promise<AccessCap> {
    const rows: { codehost_access: AccessCap }[] = await this.source.query(
      "SELECT codehost_access FROM control.memberships WHERE tenant_id = $1 AND account_id = $2 AND status = 'active'",
      [currentTenant().tenantId, accountId],
    );
    return rows[0]?.codehost_access ?? 'none';
  }

  private async credentialOf(principal: Principal | undefined, input: { account_login?: string; token?: string }): Promise<Credential> {
    if (this.config.isHosted) {
      if (input.token !== undefined) {
        throw RequestError.invalidInput('token: hosted, a project uses a code-host connection of yours (account_login; GET /codehost/connections), not a token sent here');
      }
      if (input.account_login === undefined)
        throw RequestError.invalidInput('account_login is required: the code-host connection of yours the project uses (GET /codehost/connections)');
      const connection = await this.personConnection(principal, input.account_login);
      return { login: connection.login, token: connection.token, accountId: connection.accountId, tokenSealed: null };
    }
    if (input.token === undefined) throw RequestError.invalidInput('token is required self-hosted: a personal access token of the code host (stored sealed, never shown again)');
    const user = await this.client.request<{ login?: unknown }>(input.token, { path: '/user', what: 'the account of this token' });
    const login = typeof user.body?.login === 'string' ? user.body.login : undefined;
    if (!login) throw CodehostError.unavailable('the code host did not name the account of this token');
    if (input.account_login !== undefined && input.account_login.toLowerCase() !== login.toLowerCase()) {
      throw RequestError.invalidInput(`account_login ${input.account_login} is not the account of this token (${login})`);
    }
    return { login, token: input.token, accountId: null, tokenSealed: this.box.seal(input.token) };
  }
}
