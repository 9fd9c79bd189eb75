import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { CodebaseMapService } from './codebase-map.service';
import { DocumentsService } from './documents.service';
import { CodebaseMapDto } from './dto/codebase-map.dto';
import { SearchQueryDto } from './dto/search-query.dto';
import { SearchService } from './search.service';

@Injectable()
export class KnowledgeTools {
  constructor(
    private readonly searches: SearchService,
    private readonly maps: CodebaseMapService,
    private readonly documents: DocumentsService,
  ) {}

  @McpTool({
    name: 'search_project',
    annotations: READ_ONLY,
    description: "Full-text search of a project's goal, sprint items, tasks, notes, decisions and files; best match first.",
    params: ProjectIdDto,
    body: SearchQueryDto,
  })
  search(params: ProjectIdDto, query: SearchQueryDto) {
    return this.searches.search(params.project_id, query);
  }

  @McpTool({
    name: 'map_codebase',
    annotations: IDEMPOTENT_UPDATE,
    description: "Map a repository's packages, languages, manifests and entry points from its file list; kept as the project's latest map.",
    params: ProjectIdDto,
    body: CodebaseMapDto,
  })
  map(params: ProjectIdDto, body: CodebaseMapDto) {
    return this.maps.record(params.project_id, body);
  }

  @McpTool({ name: 'get_document_structure', annotations: READ_ONLY, description: "Headings outline, links and counts of a project's documents.", input: ProjectIdDto })
  structure(params: ProjectIdDto) {
    return this.documents.structure(params.project_id, { viewer: 'mcp', via: 'mcp' });
  }

  @McpTool({
    name: 'review_documents',
    annotations: READ_ONLY,
    description: "What needs a look in a project's documents: missing headings, TODOs, broken links, stale files.",
    input: ProjectIdDto,
  })
  review(params: ProjectIdDto) {
    return this.documents.review(params.project_id);
  }
}
