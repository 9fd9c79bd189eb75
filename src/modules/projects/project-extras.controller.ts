import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ProjectIdDto } from './dto/project-id.dto';
import { SetAgentInstructionsDto } from './dto/set-agent-instructions.dto';
import { SetIconDto } from './dto/set-icon.dto';
import { SetOrganizationDto } from './dto/set-organization.dto';
import { SetParentDto } from './dto/set-parent.dto';
import { AgentInstructionsView, ProjectExtrasService } from './project-extras.service';
import { ProjectView } from './project.view';

@Controller('projects/:project_id')
export class ProjectExtrasController {
  constructor(private readonly extras: ProjectExtrasService) {}

  @Patch('organization')
  setOrganization(@Param() params: ProjectIdDto, @Body() body: SetOrganizationDto): Promise<ProjectView> {
    return this.extras.setOrganizationStatus(params.project_id, body.status);
  }

  @Patch('icon')
  setIcon(@Param() params: ProjectIdDto, @Body() body: SetIconDto): Promise<ProjectView> {
    return this.extras.setIcon(params.project_id, body.icon);
  }

  @Post('parent')
  @HttpCode(200)
  setParent(@Param() params: ProjectIdDto, @Body() body: SetParentDto): Promise<ProjectView> {
    return this.extras.setParent(params.project_id, body.parent_id);
  }

  @Get('agent-instructions')
  getAgentInstructions(@Param() params: ProjectIdDto): Promise<AgentInstructionsView> {
    return this.extras.getAgentInstructions(params.project_id);
  }

  @Patch('agent-instructions')
  setAgentInstructions(@Param() params: ProjectIdDto, @Body() body: SetAgentInstructionsDto): Promise<AgentInstructionsView> {
    return this.extras.setAgentInstructions(params.project_id, body.agent_instructions);
  }

  @Get('agent-instructions/default')
  defaultAgentInstructions(@Param() params: ProjectIdDto) {
    return this.extras.defaultAgentInstructions(params.project_id);
  }
}
