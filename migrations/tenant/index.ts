import { MigrationClass } from '../../libs/tenancy';
import { Projects1732240000000 } from './1732240000000-projects';
import { SessionsAndFileLocks1732245000000 } from './1732245000000-sessions-and-file-locks';
import { ProjectSettings1732246000000 } from './1732246000000-project-settings';

/** The tenant set, oldest first. Append only. */
export const TENANT_MIGRATIONS: MigrationClass[] = [
  Projects1732240000000,
  SessionsAndFileLocks1732245000000,
  ProjectSettings1732246000000,
];
