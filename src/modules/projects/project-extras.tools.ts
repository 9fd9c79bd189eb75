import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { FileParamsDto } from './dto/file-params.dto';
import { ProjectIdDto } from './dto/project-id.dto';
import { SetAgentInstructionsToolDto } from './dto/set-agent-instructions-tool.dto';
import { SetIconToolDto } from './dto/set-icon-tool.dto';
import { SetOrganizationToolDto } from './dto/set-organization-tool.dto';
import { SetParentToolDto } from './dto/set-parent-tool.dto';
import { UpdateSectionToolDto } from './dto/update-section-tool.dto';
import { WriteFileToolDto } from './dto/write-file-tool.dto';
import { ProjectExtrasService } from './project-extras.service';
import { ProjectFilesService } from './project-files.service';

@Injectable()
export class ProjectExtrasTools {
  constructor(
    private readonly extras: ProjectExtrasService,
    private readonly files: ProjectFilesService,
  ) {}

  @McpTool({ name: 'set_project_organization', description: "Set a project's organization status: active, parked or archived.", input: SetOrganizationToolDto })
  setOrganization(input: SetOrganizationToolDto) {
    return this.extras.setOrganizationStatus(input.project_id, input.status);
  }

  @McpTool({ name: 'set_project_icon', description: "Set a project's icon to exactly one emoji, or clear it with null.", input: SetIconToolDto })
  setIcon(input: SetIconToolDto) {
    return this.extras.setIcon(input.project_id, input.icon);
  }

  @McpTool({ name: 'set_project_parent', description: 'Make a project a subproject of another (one level only), or top-level again with parent_id null.', input: SetParentToolDto })
  setParent(input: SetParentToolDto) {
    return this.extras.setParent(input.project_id, input.parent_id);
  }

  @McpTool({ name: 'get_agent_instructions', description: "A project's instructions for assistants (Baton's defaults when it has none).", input: ProjectIdDto })
  getAgentInstructions(input: ProjectIdDto) {
    return this.extras.getAgentInstructions(input.project_id);
  }

  @McpTool({ name: 'set_agent_instructions', description: "Set a project's instructions for assistants; null goes back to the defaults.", input: SetAgentInstructionsToolDto })
  setAgentInstructions(input: SetAgentInstructionsToolDto) {
    return this.extras.setAgentInstructions(input.project_id, input.agent_instructions);
  }

  @McpTool({ name: 'get_default_agent_instructions', description: "Baton's default instructions for assistants.", input: ProjectIdDto })
  defaultAgentInstructions(input: ProjectIdDto) {
    return this.extras.defaultAgentInstructions(input.project_id);
  }

  @McpTool({ name: 'list_project_files', description: 'List the editable markdown files of a project (name, size, updated_at).', input: ProjectIdDto })
  listFiles(input: ProjectIdDto) {
    return this.files.list(input.project_id);
  }

  @McpTool({ name: 'read_project_file', description: 'Read an editable markdown file of a project.', input: FileParamsDto })
  readFile(input: FileParamsDto) {
    return this.files.read(input.project_id, input.filename);
  }

  @McpTool({ name: 'write_project_file', description: 'Create or replace an editable markdown file of a project (name ending in .md, no folders).', input: WriteFileToolDto })
  async writeFile(input: WriteFileToolDto) {
    return this.files.write(input.project_id, input.filename, input.content);
  }

  @McpTool({
    name: 'update_md_section',
    description:
      'Replace one named section of a project markdown file: the text between <!-- baton:begin NAME --> and <!-- baton:end NAME -->. README files are refused. create=true adds a missing section (and file).',
    input: UpdateSectionToolDto,
  })
  updateSection(input: UpdateSectionToolDto) {
    return this.files.updateSection(input.project_id, input.filename, input.section, input.content, input.create);
  }
}
