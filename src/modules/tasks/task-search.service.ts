import { Injectable } from '@nestjs/common';
import { bindParams, TenantDb } from '../../../libs/tenancy';
import { RequestError } from '../../common/errors/request-error';
import { requireProject } from '../projects/require-project.util';
import { DEFAULT_PAGE_SIZE } from './dto/page-query.dto';
import { SearchTasksQueryDto } from './dto/search-tasks-query.dto';
import { tasksInOrder } from './task-rows';
import { TaskView, toTaskView } from './task.view';

/** Words of a search: letters and digits; everything else (quotes, operators, punctuation) separates them. */
function searchWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 32);
}

/**
 * Full-text search over task descriptions: Postgres text search (english
 * configuration, GIN index) or SQLite FTS5 (porter stemmer). Every word must
 * match, in any form of the word ("failing" finds "fails"); best match first,
 * then newest.
 */
@Injectable()
export class TaskSearchService {
  constructor(private readonly db: TenantDb) {}

  async search(projectId: string, input: SearchTasksQueryDto): Promise<TaskView[]> {
    if (input.query !== undefined && input.q !== undefined) throw RequestError.invalidInput('give query or q, not both');
    const words = searchWords(input.query ?? input.q ?? '');
    if (words.length === 0) throw RequestError.invalidInput('query must contain at least one word');
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const dialect = this.db.dialect;
    const tasks = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const [sql, params] =
        dialect === 'postgres'
          ? bindParams(
              dialect,
              `SELECT id FROM tasks
                WHERE project_id = $1 AND to_tsvector('english', description) @@ plainto_tsquery('english', $2)
                ORDER BY ts_rank(to_tsvector('english', description), plainto_tsquery('english', $2)) DESC, seq DESC
                LIMIT $3`,
              [projectId, words.join(' '), limit],
            )
          : bindParams(
              dialect,
              `SELECT t.id FROM tasks_fts f JOIN tasks t ON t.seq = f.rowid
                WHERE tasks_fts MATCH $2 AND t.project_id = $1
                ORDER BY f.rank, t.seq DESC
                LIMIT $3`,
              // Each word quoted: FTS5 reads it as a plain term, never as query syntax.
              [projectId, words.map((w) => `"${w}"`).join(' '), limit],
            );
      const rows: { id: string }[] = await m.query(sql, params);
      return tasksInOrder(
        m,
        rows.map((r) => r.id),
      );
    });
    return tasks.map(toTaskView);
  }
}
