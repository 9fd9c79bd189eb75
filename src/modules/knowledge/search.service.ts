import { Injectable } from '@nestjs/common';
import { bindParams, Dialect, TenantDb } from '../../../libs/tenancy';
import { RequestError } from '../../common/errors/request-error';
import { requireProject } from '../projects/require-project.util';
import { SearchQueryDto } from './dto/search-query.dto';
import { SEARCH_DEFAULT_LIMIT, SEARCH_KINDS, SearchKind, SNIPPET_CHARS } from './search.constants';
import { searchWords, snippetOf } from './search-words.util';

export interface SearchResult {
  kind: SearchKind;
  /** The id of the record (for the goal, the goal's id). */
  id: string;
  title: string;
  snippet: string;
  /** Higher is better; comparable within one answer only. */
  rank: number;
}

export interface SearchAnswer {
  q: string;
  results: SearchResult[];
}

interface Row {
  kind: SearchKind;
  ref_id: string;
  title: string;
  body: string;
  rank: number | string;
}

/**
 * Full-text search over a project's goal, sprint items, tasks, notes, decision
 * log, pinned decisions and files (the search_entries index the tenant
 * migrations keep in step). Every word must match, in any form of the word;
 * Postgres ranks by ts_rank, SQLite by FTS5's bm25; best first, then newest.
 */
@Injectable()
export class SearchService {
  constructor(private readonly db: TenantDb) {}

  async search(projectId: string, input: SearchQueryDto): Promise<SearchAnswer> {
    const words = searchWords(input.q);
    if (words.length === 0) throw RequestError.invalidInput('q must contain at least one word');
    // No filter when every kind is asked for: one condition less to check per match.
    const asked = [...new Set(input.kinds ?? [])];
    const kinds = asked.length < SEARCH_KINDS.length ? asked : [];
    const limit = input.limit ?? SEARCH_DEFAULT_LIMIT;
    const dialect = this.db.dialect;
    const rows = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const [sql, params] = searchSql(dialect, projectId, words, kinds, limit);
      return (await m.query(sql, params)) as Row[];
    });
    return {
      q: input.q,
      results: rows.map((r) => ({ kind: r.kind, id: r.ref_id, title: r.title, snippet: snippetOf(r.body || r.title, words, SNIPPET_CHARS), rank: Number(r.rank) })),
    };
  }
}

function searchSql(dialect: Dialect, projectId: string, words: string[], kinds: string[], limit: number): [string, unknown[]] {
  /** `kinds` empty: every kind. */
  const kindFilter = kinds.length ? `AND e.kind IN (${kinds.map((_k, i) => `$${i + 4}`).join(', ')})` : '';
  if (dialect === 'postgres') {
    return bindParams(
      dialect,
      `SELECT e.kind, e.ref_id, e.title, e.body, ts_rank(e.search_fts, q.query) AS rank
         FROM search_entries e, plainto_tsquery('english', $2) AS q(query)
        WHERE e.project_id = $1 AND e.search_fts @@ q.query ${kindFilter}
        ORDER BY rank DESC, e.seq DESC
        LIMIT $3`,
      [projectId, words.join(' '), limit, ...kinds],
    );
  }
  return bindParams(
    dialect,
    `SELECT e.kind, e.ref_id, e.title, e.body, -f.rank AS rank
       FROM search_fts f JOIN search_entries e ON e.seq = f.rowid
      WHERE search_fts MATCH $2 AND e.project_id = $1 ${kindFilter}
      ORDER BY f.rank, e.seq DESC
      LIMIT $3`,
    // Each word quoted: FTS5 reads it as a plain term, never as query syntax.
    [projectId, words.map((w) => `"${w}"`).join(' '), limit, ...kinds],
  );
}
