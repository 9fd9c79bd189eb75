import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { output } from '../../mcp/tool-schema';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { ClaimFileDto } from './dto/claim-file.dto';
import { RegisterSessionDto } from './dto/register-session.dto';
import { ReleaseFileDto } from './dto/release-file.dto';
import { SessionIdDto } from './dto/session-id.dto';
import { UpdateSessionDto } from './dto/update-session.dto';
import { FileLocksService } from './file-locks.service';
import { SessionsService } from './sessions.service';

@Injectable()
export class SessionsTools {
  constructor(
    private readonly sessions: SessionsService,
    private readonly locks: FileLocksService,
  ) {}

  @McpTool({
    name: 'register_session',
    annotations: ADDITIVE,
    description: 'Register a session in a project (start_session also returns context and file warnings).',
    input: RegisterSessionDto,
  })
  register(input: RegisterSessionDto) {
    return this.sessions.register(input);
  }

  @McpTool({
    name: 'heartbeat',
    annotations: IDEMPOTENT_UPDATE,
    outputSchema: output({ ok: 'boolean' }),
    description: 'Keep a session alive (ok: false once closed).',
    input: SessionIdDto,
  })
  heartbeat(input: SessionIdDto) {
    return this.sessions.heartbeat(input.session_id);
  }

  @McpTool({
    name: 'close_session',
    annotations: IDEMPOTENT_UPDATE,
    outputSchema: output({ closed_now: 'boolean' }),
    description: 'Close a session: frees its locks, re-queues its work.',
    input: SessionIdDto,
  })
  close(input: SessionIdDto) {
    return this.sessions.close(input.session_id);
  }

  @McpTool({
    name: 'update_session',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Rename a session or replace its dashboard state object.',
    params: SessionIdDto,
    body: UpdateSessionDto,
  })
  update(params: SessionIdDto, body: UpdateSessionDto) {
    return this.sessions.update(params.session_id, body);
  }

  @McpTool({ name: 'list_sessions', annotations: READ_ONLY, description: 'List the active sessions of a project, most recently seen first.', input: ProjectIdDto })
  list(input: ProjectIdDto) {
    return this.sessions.listActive(input.project_id);
  }

  @McpTool({
    name: 'claim_file',
    annotations: ADDITIVE,
    outputSchema: output({ claimed: 'boolean' }),
    description: 'Lock a file for a session (default 4 h; again to renew).',
    input: ClaimFileDto,
  })
  claimFile(input: ClaimFileDto) {
    return this.locks.claim(input);
  }

  @McpTool({
    name: 'release_file',
    annotations: IDEMPOTENT_UPDATE,
    outputSchema: output({ released: 'boolean' }),
    description: 'Release a file lock this session holds.',
    input: ReleaseFileDto,
  })
  releaseFile(input: ReleaseFileDto) {
    return this.locks.release(input);
  }

  @McpTool({ name: 'list_file_locks', annotations: READ_ONLY, description: 'List the live file locks of a project.', input: ProjectIdDto })
  listLocks(input: ProjectIdDto) {
    return this.locks.list(input.project_id);
  }
}
