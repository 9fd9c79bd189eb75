import { Inject, Injectable } from '@nestjs/common';
import { TenantDb } from '../../../libs/tenancy';
import { Principal } from '../../common/auth/principal';
import { RequestError } from '../../common/errors/request-error';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { requireProject } from '../projects/require-project.util';
import { CodehostClient } from './codehost.client';
import { DEFAULT_WORKFLOW_RUNS } from './codehost.constants';
import { CodehostError } from './codehost.errors';
import { CodehostLinks } from './codehost-links.service';
import { CodehostRepository, repositoryView, RepositoryView } from './codehost-repository.view';
import { ListWorkflowRunsDto } from './dto/list-workflow-runs.dto';
import { ReadRepoFileDto } from './dto/read-repo-file.dto';
import { ReposQueryDto } from './dto/repos-query.dto';
import { contentsPath, repoPath } from './repo-path.util';

export interface BranchView {
  name: string;
  sha: string | null;
  protected: boolean;
}

export interface RepoFileView {
  path: string;
  sha: string;
  size: number;
  content: string;
}

export interface WorkflowRunView {
  id: number;
  name: string | null;
  branch: string | null;
  status: string | null;
  conclusion: string | null;
  html_url: string | null;
  created_at: string | null;
}

/** What a project's tools and routes read from its repository. Reads change nothing anywhere. */
@Injectable()
export class CodehostReads {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: TenantDb,
    private readonly links: CodehostLinks,
    private readonly client: CodehostClient,
  ) {}

  /** The repositories the project's access (or, hosted, the person's connection `account_login`) can see, every page gathered. */
  async repos(principal: Principal | undefined, projectId: string, query: ReposQueryDto): Promise<RepositoryView[]> {
    let token: string;
    if (query.account_login === undefined) token = (await this.links.access(projectId)).token;
    else if (!this.config.isHosted) throw RequestError.invalidInput("account_login is for hosted mode: self-hosted, the project's token decides what it sees");
    else {
      await this.db.read((m) => requireProject(m, projectId));
      token = (await this.links.personConnection(principal, query.account_login)).token;
    }
    const repos = await this.client.collect<CodehostRepository>(token, { path: '/user/repos', query: { sort: 'full_name' }, what: 'repositories of this account' });
    return repos.map(repositoryView);
  }

  async branches(projectId: string): Promise<BranchView[]> {
    const access = await this.links.access(projectId);
    const branches = await this.client.collect<{ name: string; protected?: boolean; commit?: { sha?: string } }>(access.token, {
      path: repoPath(access, '/branches'),
      what: `branches of ${access.owner}/${access.name}`,
    });
    return branches.map((b) => ({ name: b.name, sha: b.commit?.sha ?? null, protected: b.protected === true }));
  }

  async file(projectId: string, input: ReadRepoFileDto): Promise<RepoFileView> {
    const access = await this.links.access(projectId);
    const what = `file ${input.path}${input.ref ? ` at ${input.ref}` : ''} in ${access.owner}/${access.name}`;
    const answer = await this.client.request<{ type?: string; path: string; sha: string; size: number; encoding?: string; content?: string }>(access.token, {
      path: contentsPath(access, input.path),
      query: { ref: input.ref },
      what,
    });
    const file = answer.body;
    if (Array.isArray(file) || file?.type !== 'file') throw CodehostError.refused(`reading ${input.path}`, 'it is a directory or not a file');
    if (file.encoding !== 'base64' || typeof file.content !== 'string') throw CodehostError.refused(`reading ${input.path}`, 'its content is too large to be sent inline');
    return { path: file.path, sha: file.sha, size: file.size, content: Buffer.from(file.content, 'base64').toString('utf8') };
  }

  async workflowRuns(projectId: string, input: ListWorkflowRunsDto): Promise<WorkflowRunView[]> {
    const access = await this.links.access(projectId);
    const answer = await this.client.request<{ workflow_runs?: Record<string, unknown>[] }>(access.token, {
      path: repoPath(access, '/actions/runs'),
      query: { branch: input.branch, status: input.status, per_page: input.limit ?? DEFAULT_WORKFLOW_RUNS },
      what: `workflow runs of ${access.owner}/${access.name}`,
    });
    return (answer.body?.workflow_runs ?? []).map((run) => ({
      id: Number(run.id),
      name: text(run.name),
      branch: text(run.head_branch),
      status: text(run.status),
      conclusion: text(run.conclusion),
      html_url: text(run.html_url),
      created_at: text(run.created_at),
    }));
  }

  /** GET .../repo-image: the picture of the repository's owner, for a project card. */
  async image(projectId: string): Promise<{ repo: string; image_url: string | null }> {
    const access = await this.links.access(projectId);
    const repo = await this.links.repository(access);
    const url = repo.owner.avatar_url;
    return { repo: repo.full_name, image_url: typeof url === 'string' && /^https?:\/\//.test(url) ? url : null };
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
