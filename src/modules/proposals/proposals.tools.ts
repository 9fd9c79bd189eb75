import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { AddProposalDto } from './dto/add-proposal.dto';
import { AdvanceProposalDto } from './dto/advance-proposal.dto';
import { ListProposalsDto } from './dto/list-proposals.dto';
import { PromoteProposalDto } from './dto/promote-proposal.dto';
import { ProposalIdDto } from './dto/proposal-id.dto';
import { ProposalsService } from './proposals.service';

/** Workspace proposals have no REST door: these tools are the only way in (GET /control-plane/proposals is a redacted listing). */
@Injectable()
export class ProposalsTools {
  constructor(private readonly proposals: ProposalsService) {}

  @McpTool({
    name: 'add_workspace_proposal',
    annotations: ADDITIVE,
    description: 'Store a cross-project idea as a raw workspace proposal (never claimable).',
    input: AddProposalDto,
  })
  add(input: AddProposalDto) {
    return this.proposals.add(input);
  }

  @McpTool({ name: 'get_workspace_proposals', annotations: READ_ONLY, description: 'Workspace proposals, newest first; optional status.', input: ListProposalsDto })
  list(input: ListProposalsDto) {
    return this.proposals.list(input);
  }

  @McpTool({
    name: 'advance_proposal_status',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Move a proposal one step: forward raw → investigating → rejected, or back.',
    params: ProposalIdDto,
    body: AdvanceProposalDto,
  })
  advance(params: ProposalIdDto, body: AdvanceProposalDto) {
    return this.proposals.advance(params.proposal_id, body.direction);
  }

  @McpTool({
    name: 'promote_proposal',
    annotations: ADDITIVE,
    description: "Promote a raw or investigating proposal: creates a linked sprint item in a project's sprint.",
    params: ProposalIdDto,
    body: PromoteProposalDto,
  })
  promote(params: ProposalIdDto, body: PromoteProposalDto) {
    return this.proposals.promote(params.proposal_id, body);
  }
}
