import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { CodebaseMapService } from './codebase-map.service';
import { DocumentsService } from './documents.service';
import { KnowledgeController } from './knowledge.controller';
import { KnowledgeTools } from './knowledge.tools';
import { SearchService } from './search.service';

/** What a project knows: search over its records, its documents, its codebase map. */
@Module({
  imports: [ProjectsModule],
  controllers: [KnowledgeController],
  providers: [SearchService, CodebaseMapService, DocumentsService, KnowledgeTools],
})
export class KnowledgeModule {}
