import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { CodehostClient } from './codehost.client';
import { DEFAULT_MCP_TEMPLATE_PATH } from './codehost.constants';
import { CodehostError, CodehostErrorCode } from './codehost.errors';
import { CodehostAccess, CodehostLinks } from './codehost-links.service';
import { CodehostRepository } from './codehost-repository.view';
import { CreateIssueDto } from './dto/create-issue.dto';
import { PatchFileDto } from './dto/patch-file.dto';
import { PushMcpTemplateDto } from './dto/push-mcp-template.dto';
import { TriggerWorkflowDto } from './dto/trigger-workflow.dto';
import { mcpTemplate } from './mcp-template.util';
import { contentsPath, repoPath } from './repo-path.util';

export interface FileWriteView {
  path: string;
  branch: string;
  created: boolean;
  sha: string | null;
  commit_sha: string | null;
}

/**
 * The writes to a project's repository (spec §5): made only when called explicitly, and only after
 * the code host says the access may push to the repository; otherwise refused with nothing sent.
 */
@Injectable()
export class CodehostWrites {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly links: CodehostLinks,
    private readonly client: CodehostClient,
  ) {}

  async patchFile(projectId: string, input: PatchFileDto): Promise<FileWriteView> {
    const { access, repo } = await this.writable(projectId, `change ${input.path}`);
    return this.writeFile(access, input.branch ?? repo.default_branch, input.path, input.content, input.message, input.expected_sha);
  }

  async pushMcpTemplate(projectId: string, input: PushMcpTemplateDto): Promise<FileWriteView> {
    const path = input.path ?? DEFAULT_MCP_TEMPLATE_PATH;
    const { access, repo } = await this.writable(projectId, `write ${path}`);
    const content = mcpTemplate(this.config.baseUrl, this.config.isHosted);
    return this.writeFile(access, input.branch ?? repo.default_branch, path, content, input.message ?? 'Add the Baton MCP configuration');
  }

  async triggerWorkflow(projectId: string, input: TriggerWorkflowDto): Promise<{ workflow: string; ref: string; dispatched: true }> {
    const { access, repo } = await this.writable(projectId, `run workflow ${input.workflow}`);
    const ref = input.ref ?? repo.default_branch;
    await this.client.request(access.token, {
      method: 'POST',
      path: repoPath(access, `/actions/workflows/${encodeURIComponent(input.workflow)}/dispatches`),
      body: { ref, ...(input.inputs ? { inputs: input.inputs } : {}) },
      what: `workflow ${input.workflow} of ${access.owner}/${access.name}`,
    });
    return { workflow: input.workflow, ref, dispatched: true };
  }

  async createIssue(projectId: string, input: CreateIssueDto): Promise<{ number: number; title: string; html_url: string | null }> {
    const { access, repo } = await this.writable(projectId, 'open an issue');
    if (repo.has_issues === false) throw CodehostError.refused(`an issue in ${repo.full_name}`, 'the repository has issues turned off; nothing was changed');
    const answer = await this.client.request<{ number: number; title: string; html_url?: string }>(access.token, {
      method: 'POST',
      path: repoPath(access, '/issues'),
      body: { title: input.title, body: input.body ?? '', ...(input.labels ? { labels: input.labels } : {}) },
      what: `an issue in ${access.owner}/${access.name}`,
    });
    return { number: answer.body.number, title: answer.body.title, html_url: answer.body.html_url ?? null };
  }

  /** The access and the repository, once the code host says the access may push there. */
  private async writable(projectId: string, action: string): Promise<{ access: CodehostAccess; repo: CodehostRepository }> {
    const access = await this.links.access(projectId);
    if (access.cap !== 'write') throw CodehostError.accessCapped(access.login, access.cap, access.capBy);
    const repo = await this.links.repository(access);
    if (repo.permissions?.push !== true) throw CodehostError.permissionDenied(access.login, repo.full_name, action, 'push (write) permission on the repository');
    return { access, repo };
  }

  private async writeFile(access: CodehostAccess, branch: string, path: string, content: string, message: string, expectedSha?: string): Promise<FileWriteView> {
    const current = await this.currentSha(access, path, branch);
    if (expectedSha !== undefined && current !== expectedSha) throw CodehostError.fileChanged(path, current);
    const answer = await this.client.request<{ content?: { sha?: string }; commit?: { sha?: string } }>(access.token, {
      method: 'PUT',
      path: contentsPath(access, path),
      body: { message, content: Buffer.from(content, 'utf8').toString('base64'), branch, ...(current ? { sha: current } : {}) },
      what: `${path} on ${branch} of ${access.owner}/${access.name}`,
    });
    return { path, branch, created: current === null, sha: answer.body?.content?.sha ?? null, commit_sha: answer.body?.commit?.sha ?? null };
  }

  /** The blob sha of `path` on `branch`, or null when there is no such file yet. */
  private async currentSha(access: CodehostAccess, path: string, branch: string): Promise<string | null> {
    try {
      const answer = await this.client.request<{ sha?: string; type?: string }>(access.token, {
        path: contentsPath(access, path),
        query: { ref: branch },
        what: `file ${path} on ${branch} of ${access.owner}/${access.name}`,
      });
      if (Array.isArray(answer.body) || answer.body?.type !== 'file') throw CodehostError.refused(`writing ${path}`, 'it is a directory');
      return answer.body.sha ?? null;
    } catch (error) {
      if (error instanceof CodehostError && error.code === CodehostErrorCode.NotFound) return null;
      throw error;
    }
  }
}
