import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, DESTRUCTIVE, READ_ONLY } from '../../mcp/tool-annotations';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { CodehostLinks } from './codehost-links.service';
import { CodehostReads } from './codehost-reads.service';
import { CodehostWrites } from './codehost-writes.service';
import { CreateIssueDto } from './dto/create-issue.dto';
import { ListWorkflowRunsDto } from './dto/list-workflow-runs.dto';
import { PatchFileDto } from './dto/patch-file.dto';
import { ReadRepoFileDto } from './dto/read-repo-file.dto';
import { TriggerWorkflowDto } from './dto/trigger-workflow.dto';

/** Every tool here talks to the code host: open world. */
const READS_CODEHOST = { ...READ_ONLY, openWorldHint: true };

@Injectable()
export class CodehostTools {
  constructor(
    private readonly links: CodehostLinks,
    private readonly reads: CodehostReads,
    private readonly writes: CodehostWrites,
  ) {}

  @McpTool({ name: 'get_codehost_status', annotations: READS_CODEHOST, description: "The project's code-host repository, its account and permissions.", input: ProjectIdDto })
  status(input: ProjectIdDto) {
    return this.links.status(input.project_id);
  }

  @McpTool({ name: 'list_repo_branches', annotations: READS_CODEHOST, description: "Branches of the project's repository.", input: ProjectIdDto })
  branches(input: ProjectIdDto) {
    return this.reads.branches(input.project_id);
  }

  @McpTool({
    name: 'read_repo_file',
    annotations: READS_CODEHOST,
    description: "A file of the project's repository (text and blob sha), at ref or the default branch.",
    params: ProjectIdDto,
    body: ReadRepoFileDto,
  })
  file(params: ProjectIdDto, body: ReadRepoFileDto) {
    return this.reads.file(params.project_id, body);
  }

  @McpTool({
    name: 'list_workflow_runs',
    annotations: READS_CODEHOST,
    description: "The newest workflow runs of the project's repository; branch and status narrow them.",
    params: ProjectIdDto,
    body: ListWorkflowRunsDto,
  })
  runs(params: ProjectIdDto, body: ListWorkflowRunsDto) {
    return this.reads.workflowRuns(params.project_id, body);
  }

  @McpTool({
    name: 'patch_file',
    annotations: { ...DESTRUCTIVE, openWorldHint: true },
    description: "Commit new content for one file of the project's repository (needs push permission; expected_sha guards against overwriting a change).",
    params: ProjectIdDto,
    body: PatchFileDto,
  })
  patchFile(params: ProjectIdDto, body: PatchFileDto) {
    return this.writes.patchFile(params.project_id, body);
  }

  @McpTool({
    name: 'trigger_workflow',
    annotations: { ...ADDITIVE, openWorldHint: true },
    description: "Run a workflow of the project's repository on ref (needs push permission).",
    params: ProjectIdDto,
    body: TriggerWorkflowDto,
  })
  triggerWorkflow(params: ProjectIdDto, body: TriggerWorkflowDto) {
    return this.writes.triggerWorkflow(params.project_id, body);
  }

  @McpTool({
    name: 'create_issue',
    annotations: { ...ADDITIVE, openWorldHint: true },
    description: "Open an issue in the project's repository (needs push permission).",
    params: ProjectIdDto,
    body: CreateIssueDto,
  })
  createIssue(params: ProjectIdDto, body: CreateIssueDto) {
    return this.writes.createIssue(params.project_id, body);
  }
}
