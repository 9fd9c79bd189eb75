import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { ClaimFileDto } from './dto/claim-file.dto';
import { RegisterSessionDto } from './dto/register-session.dto';
import { ReleaseFileDto } from './dto/release-file.dto';
import { SessionIdDto } from './dto/session-id.dto';
import { UpdateSessionToolDto } from './dto/update-session-tool.dto';
import { FileLocksService } from './file-locks.service';
import { SessionsService } from './sessions.service';

@Injectable()
export class SessionsTools {
  constructor(
    private readonly sessions: SessionsService,
    private readonly locks: FileLocksService,
  ) {}

  @McpTool({ name: 'register_session', description: 'Register a session in a project (start_session also returns context and file warnings).', input: RegisterSessionDto })
  register(input: RegisterSessionDto) {
    return this.sessions.register(input);
  }

  @McpTool({ name: 'heartbeat', description: "Refresh a session's last_seen so it is not swept; ok is false once it is closed.", input: SessionIdDto })
  heartbeat(input: SessionIdDto) {
    return this.sessions.heartbeat(input.session_id);
  }

  @McpTool({ name: 'close_session', description: 'Close a session: its file locks are released and its unfinished work re-queued.', input: SessionIdDto })
  close(input: SessionIdDto) {
    return this.sessions.close(input.session_id);
  }

  @McpTool({ name: 'update_session', description: 'Rename a session or replace its dashboard state object.', input: UpdateSessionToolDto })
  update(input: UpdateSessionToolDto) {
    return this.sessions.update(input.session_id, input);
  }

  @McpTool({ name: 'list_sessions', description: 'List the active sessions of a project, most recently seen first.', input: ProjectIdDto })
  list(input: ProjectIdDto) {
    return this.sessions.listActive(input.project_id);
  }

  @McpTool({
    name: 'claim_file',
    description:
      'Lock a file of the project for this session (default 4 h; claim again to renew). Refused with the holder named while another live session holds it, unless force=true.',
    input: ClaimFileDto,
  })
  claimFile(input: ClaimFileDto) {
    return this.locks.claim(input);
  }

  @McpTool({ name: 'release_file', description: 'Release a file lock this session holds.', input: ReleaseFileDto })
  releaseFile(input: ReleaseFileDto) {
    return this.locks.release(input);
  }

  @McpTool({ name: 'list_file_locks', description: 'List the live file locks of a project.', input: ProjectIdDto })
  listLocks(input: ProjectIdDto) {
    return this.locks.list(input.project_id);
  }
}
