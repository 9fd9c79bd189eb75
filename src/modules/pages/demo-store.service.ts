import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { applyTenantMigrations } from '../../database/sqlite-tenant-file';

/** The demo project's id: fixed, so seeding at every start finds it and adds nothing twice. */
export const DEMO_PROJECT_ID = '00000000-0000-4000-8000-00000000de30';

export interface DemoProject {
  project: { id: string; name: string };
  goal: { content: string; north_star: string } | null;
  items: { title: string; status: string; wave: string | null; claimed_by: string | null }[];
  sessions: { name: string; status: string }[];
  questions: { question: string; urgency: string; status: string; asked_by: string | null }[];
  decisions: { title: string; body: string }[];
}

const ITEMS: [title: string, status: string, wave: string, claimedBy: string | null][] = [
  ['Refund a paid invoice', 'todo', 'wave 2', null],
  ['E-mail a receipt', 'todo', 'wave 2', null],
  ['Card payments at checkout', 'in_progress', 'wave 1', 'claude-checkout'],
  ['Invoice PDF layout', 'in_progress', 'wave 1', 'codex-pdf'],
  ['Invoice numbering per year', 'completed', 'wave 1', null],
  ['Currency rounding rules', 'completed', 'wave 1', null],
];
const SESSIONS = ['claude-checkout', 'codex-pdf'];
const DECISIONS: [string, string][] = [
  ['Amounts in minor units', 'Amounts are stored in cents, never as floats.'],
  ['Invoice numbers restart yearly', 'Invoice numbers restart every calendar year: 2026-0001.'],
];

/**
 * The demo project behind /demo: stored in a SQLite file of its own (`demo.sqlite` in
 * SERVICE_DATA_DIR, with the same tables as a workspace), apart from every workspace, so no
 * credential of a workspace reaches it and the demo's cookie reaches nothing else. Opened, migrated
 * and seeded with fixed ids (`INSERT OR IGNORE`) at the first demo read of a process, not at start:
 * most instances never show it, and migrating a second database doubled a first start's work. A
 * second process adds nothing. Read-only after that.
 */
@Injectable()
export class DemoStore implements OnModuleDestroy {
  private readonly logger = new Logger('demo');
  private db?: Database.Database;
  private opening?: Promise<Database.Database>;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onModuleDestroy() {
    this.db?.close();
  }

  /** Writes the demo project's rows that are not there yet; the ones there stay as they are. */
  async seed(): Promise<void> {
    this.seedInto(await this.database());
  }

  private seedInto(db: Database.Database): void {
    const at = '2026-01-05 09:00:00.000';
    const id = (kind: string, n: number) => `00000000-0000-4000-8000-${kind}${String(n).padStart(12 - kind.length, '0')}`;
    db.transaction(() => {
      db.prepare('INSERT OR IGNORE INTO projects (id, name, name_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(DEMO_PROJECT_ID, 'acme-billing', 'acme-billing', at, at);
      db.prepare('INSERT OR IGNORE INTO goals (id, project_id, content, north_star, sprint, version, mode, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)').run(
        id('a', 1),
        DEMO_PROJECT_ID,
        'Invoices can be paid by card before the end of the quarter',
        'Customers pay without writing to us',
        'Q1 payments',
        'normal',
        at,
        at,
      );
      SESSIONS.forEach((name, i) =>
        db
          .prepare('INSERT OR IGNORE INTO sessions (id, project_id, name, kind, status, human_id, last_seen, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
          .run(id('b', i + 1), DEMO_PROJECT_ID, name, 'agent', 'active', 'demo', at, at),
      );
      const item = db.prepare(
        `INSERT OR IGNORE INTO sprint_items (id, project_id, version, title, status, failure_mode, milestone_type, priority, priority_rank, touches_resources,
           required_notes, slug, nickname, prospect_bypass, stall_count, added_at, touches_files, locations, updated_at, wave, claimed_by_session_id)
         VALUES (?, ?, 'v1', ?, ?, 'retry', 'none', 'normal', ?, '[]', 0, ?, ?, 0, 0, ?, '[]', '[]', ?, ?, ?)`,
      );
      ITEMS.forEach(([title, status, wave, claimedBy], i) => {
        const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
        item.run(id('c', i + 1), DEMO_PROJECT_ID, title, status, i, slug, slug, at, at, wave, claimedBy ? id('b', SESSIONS.indexOf(claimedBy) + 1) : null);
      });
      db.prepare('INSERT OR IGNORE INTO hitl_requests (id, project_id, session_id, question, urgency, status, assigned_to, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
        id('d', 1),
        DEMO_PROJECT_ID,
        id('b', 1),
        'Should a declined card keep the invoice open, or mark it failed?',
        'blocking',
        'pending',
        'human',
        at,
      );
      DECISIONS.forEach(([title, body], i) =>
        db
          .prepare('INSERT OR IGNORE INTO pinned_decisions (id, project_id, title, body, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(id('e', i + 1), DEMO_PROJECT_ID, title, body, 'active', at, at),
      );
    })();
  }

  /** The demo project as stored. */
  async project(): Promise<DemoProject> {
    const db = await this.database();
    const project = db.prepare('SELECT id, name FROM projects WHERE id = ?').get(DEMO_PROJECT_ID) as DemoProject['project'];
    return {
      project,
      goal: (db.prepare('SELECT content, north_star FROM goals WHERE project_id = ? ORDER BY version DESC LIMIT 1').get(DEMO_PROJECT_ID) as DemoProject['goal']) ?? null,
      items: db
        .prepare(
          `SELECT i.title, i.status, i.wave, s.name AS claimed_by FROM sprint_items i LEFT JOIN sessions s ON s.id = i.claimed_by_session_id
            WHERE i.project_id = ? ORDER BY i.priority_rank, i.title`,
        )
        .all(DEMO_PROJECT_ID) as DemoProject['items'],
      sessions: db.prepare('SELECT name, status FROM sessions WHERE project_id = ? ORDER BY name').all(DEMO_PROJECT_ID) as DemoProject['sessions'],
      questions: db
        .prepare(
          'SELECT h.question, h.urgency, h.status, s.name AS asked_by FROM hitl_requests h LEFT JOIN sessions s ON s.id = h.session_id WHERE h.project_id = ? ORDER BY h.created_at',
        )
        .all(DEMO_PROJECT_ID) as DemoProject['questions'],
      decisions: db.prepare('SELECT title, body FROM pinned_decisions WHERE project_id = ? ORDER BY created_at, title').all(DEMO_PROJECT_ID) as DemoProject['decisions'],
    };
  }

  /** Row counts of the demo's tables (for the seeding's test). */
  async counts(): Promise<Record<string, number>> {
    const db = await this.database();
    return Object.fromEntries(
      ['projects', 'goals', 'sessions', 'sprint_items', 'hitl_requests', 'pinned_decisions'].map((t) => [t, db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]),
    );
  }

  /** The demo's database, opened, migrated and seeded by the first caller; the callers meanwhile wait for the same. */
  private database(): Promise<Database.Database> {
    this.opening ??= this.prepare().catch((error: unknown) => {
      this.opening = undefined; // the next read tries again
      throw error;
    });
    return this.opening;
  }

  private async prepare(): Promise<Database.Database> {
    const db = this.open();
    try {
      await applyTenantMigrations(db);
      this.seedInto(db);
    } catch (error) {
      db.close();
      throw error;
    }
    this.db = db;
    return db;
  }

  /** The file in the data folder; where that cannot be written (a read-only image), a database in memory, seeded the same way. */
  private open(): Database.Database {
    try {
      mkdirSync(this.config.dataDir, { recursive: true });
      return new Database(join(this.config.dataDir, 'demo.sqlite'));
    } catch (error) {
      this.logger.warn({ msg: 'the demo file cannot be written: the demo is kept in memory', error_class: (error as Error).name });
      return new Database(':memory:');
    }
  }
}
