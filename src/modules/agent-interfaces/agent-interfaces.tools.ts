import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { READ_ONLY } from '../../mcp/tool-annotations';
import { BatchReadService } from './batch-read.service';
import { BatchReadDto } from './dto/batch-read.dto';

@Injectable()
export class AgentInterfacesTools {
  constructor(private readonly batch: BatchReadService) {}

  @McpTool({
    name: 'batch_read',
    annotations: READ_ONLY,
    description: 'Up to 20 reads in one call, each {read, args} as its own tool takes them; a refused read is reported alone.',
    input: BatchReadDto,
  })
  batchRead(input: BatchReadDto) {
    return this.batch.run(input);
  }
}
