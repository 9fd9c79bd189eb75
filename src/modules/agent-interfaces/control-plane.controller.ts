import { Controller, Get, Query } from '@nestjs/common';
import { ArtifactView, ControlPlaneService, Page, ProposalSummary, RelationshipView } from './control-plane.service';
import { ControlPlanePageDto } from './dto/control-plane-page.dto';

/** Read-only, paginated, redacted views of the caller's workspace (ids, titles, counts: never a body). */
@Controller('control-plane')
export class ControlPlaneController {
  constructor(private readonly views: ControlPlaneService) {}

  @Get('artifacts')
  artifacts(@Query() page: ControlPlanePageDto): Promise<Page<ArtifactView>> {
    return this.views.artifacts(page);
  }

  @Get('proposals')
  proposals(@Query() page: ControlPlanePageDto): Promise<Page<ProposalSummary>> {
    return this.views.proposals(page);
  }

  @Get('relationships')
  relationships(@Query() page: ControlPlanePageDto): Promise<Page<RelationshipView>> {
    return this.views.relationships(page);
  }
}
