import { Controller, Get, Header, Inject } from '@nestjs/common';
import { Public } from '../common/auth/public.decorator';
import { PublicUrl } from '../common/public-url';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { renderQuickstart, renderToolsDoc } from './tools-doc.renderer';
import { ToolRegistry } from './tool-registry.service';

/** Documentation generated from the tool registry: always in step with the tools served. */
@Controller()
@Public()
export class ToolsDocController {
  constructor(
    private readonly registry: ToolRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly publicUrl: PublicUrl,
  ) {}

  @Get('tools')
  tools() {
    return this.registry.list().map((t) => ({ name: t.name, description: t.description, input_schema: t.rulesSchema }));
  }

  @Get('mcp/tools-doc')
  @Header('Content-Type', 'text/markdown; charset=utf-8')
  toolsDoc(): string {
    return renderToolsDoc(this.registry.list());
  }

  @Get('mcp/quickstart')
  @Header('Content-Type', 'text/markdown; charset=utf-8')
  quickstart(): string {
    return renderQuickstart(this.config, this.publicUrl.base, this.registry.list().length);
  }
}
