import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { FileParamsDto } from './dto/file-params.dto';
import { ProjectIdDto } from './dto/project-id.dto';
import { SectionParamsDto } from './dto/section-params.dto';
import { SetAgentInstructionsDto } from './dto/set-agent-instructions.dto';
import { SetIconDto } from './dto/set-icon.dto';
import { SetOrganizationDto } from './dto/set-organization.dto';
import { SetParentDto } from './dto/set-parent.dto';
import { UpdateSectionDto } from './dto/update-section.dto';
import { WriteFileDto } from './dto/write-file.dto';
import { ProjectExtrasService } from './project-extras.service';
import { ProjectFilesService } from './project-files.service';

@Injectable()
export class ProjectExtrasTools {
  constructor(
    private readonly extras: ProjectExtrasService,
    private readonly files: ProjectFilesService,
  ) {}

  @McpTool({
    name: 'set_project_organization',
    annotations: IDEMPOTENT_UPDATE,
    description: "Set a project's organization status: active, parked or archived.",
    params: ProjectIdDto,
    body: SetOrganizationDto,
  })
  setOrganization(params: ProjectIdDto, body: SetOrganizationDto) {
    return this.extras.setOrganizationStatus(params.project_id, body.status);
  }

  @McpTool({
    name: 'set_project_icon',
    annotations: IDEMPOTENT_UPDATE,
    description: "Set a project's icon to exactly one emoji, or clear it with null.",
    params: ProjectIdDto,
    body: SetIconDto,
  })
  setIcon(params: ProjectIdDto, body: SetIconDto) {
    return this.extras.setIcon(params.project_id, body.icon);
  }

  @McpTool({
    name: 'set_project_parent',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Make a project a subproject of another (one level only), or top-level again with parent_id null.',
    params: ProjectIdDto,
    body: SetParentDto,
  })
  setParent(params: ProjectIdDto, body: SetParentDto) {
    return this.extras.setParent(params.project_id, body.parent_id);
  }

  @McpTool({
    name: 'get_agent_instructions',
    annotations: READ_ONLY,
    description: "A project's instructions for assistants (Baton's defaults when it has none).",
    input: ProjectIdDto,
  })
  getAgentInstructions(input: ProjectIdDto) {
    return this.extras.getAgentInstructions(input.project_id);
  }

  @McpTool({
    name: 'set_agent_instructions',
    annotations: IDEMPOTENT_UPDATE,
    description: "Set a project's instructions for assistants; null goes back to the defaults.",
    params: ProjectIdDto,
    body: SetAgentInstructionsDto,
  })
  setAgentInstructions(params: ProjectIdDto, body: SetAgentInstructionsDto) {
    return this.extras.setAgentInstructions(params.project_id, body.agent_instructions);
  }

  @McpTool({ name: 'get_default_agent_instructions', annotations: READ_ONLY, description: "Baton's default instructions for assistants.", input: ProjectIdDto })
  defaultAgentInstructions(input: ProjectIdDto) {
    return this.extras.defaultAgentInstructions(input.project_id);
  }

  @McpTool({ name: 'list_project_files', annotations: READ_ONLY, description: 'List the editable markdown files of a project (name, size, updated_at).', input: ProjectIdDto })
  listFiles(input: ProjectIdDto) {
    return this.files.list(input.project_id);
  }

  @McpTool({ name: 'read_project_file', annotations: READ_ONLY, description: 'Read an editable markdown file of a project.', input: FileParamsDto })
  readFile(input: FileParamsDto) {
    return this.files.read(input.project_id, input.filename);
  }

  @McpTool({
    name: 'write_project_file',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Create or replace an editable markdown file of a project (name ending in .md, no folders).',
    params: FileParamsDto,
    body: WriteFileDto,
  })
  async writeFile(params: FileParamsDto, body: WriteFileDto) {
    return this.files.write(params.project_id, params.filename, body.content);
  }

  @McpTool({
    name: 'update_md_section',
    annotations: IDEMPOTENT_UPDATE,
    description:
      'Replace one named section of a project markdown file: the text between <!-- baton:begin NAME --> and <!-- baton:end NAME -->. README files are refused. create=true adds a missing section (and file). With a local checkout, CLAUDE.md/AGENTS.md/GEMINI.md are the committed files: the edit waits for a human review (pass session_id) unless force=true.',
    params: SectionParamsDto,
    body: UpdateSectionDto,
  })
  updateSection(params: SectionParamsDto, body: UpdateSectionDto) {
    return this.files.updateSection(params.project_id, params.filename, params.section, body.content, body);
  }
}
