import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { In, LessThan } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { DocumentStructureViewedEvent } from '../../common/events/domain-event-map';
import { DomainEvents } from '../../common/events/domain-events';
import { Project } from '../projects/project.entity';
import { DocumentPeek } from './document-peek.entity';

/** The peeks a workspace keeps: the last 50, older ones are dropped as new ones come. */
export const DOCUMENT_PEEKS_KEPT = 50;

export interface DocumentPeekView {
  id: string;
  project_id: string;
  project_name: string | null;
  viewer: string;
  via: string;
  document_count: number;
  created_at: string;
}

/**
 * Document peeks: every view of a project's document structure (REST or
 * MCP), which saves nothing, is recorded (who, which project, when, how many
 * documents), so a workspace sees who looked at its documents without
 * keeping what they saw.
 */
@Injectable()
export class DocumentPeeksService implements OnModuleInit {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
  ) {}

  onModuleInit() {
    this.events.on('documents.structure_viewed', (event) => this.record(event));
  }

  async record(event: DocumentStructureViewedEvent): Promise<void> {
    await this.db.transaction(async (m) => {
      await m.insert(DocumentPeek, {
        id: randomUUID(),
        project_id: event.project_id,
        viewer: event.viewer.slice(0, 200),
        via: event.via,
        document_count: event.document_count,
        created_at: this.clock.now(),
      });
      const kept = await m.find(DocumentPeek, { select: { id: true, created_at: true }, order: { created_at: 'DESC', id: 'DESC' }, skip: DOCUMENT_PEEKS_KEPT - 1, take: 1 });
      if (kept.length) await m.delete(DocumentPeek, { created_at: LessThan(kept[0].created_at) });
    });
  }

  async list(): Promise<{ peeks: DocumentPeekView[]; total: number }> {
    return this.db.read(async (m) => {
      const rows = await m.find(DocumentPeek, { order: { created_at: 'DESC', id: 'DESC' }, take: DOCUMENT_PEEKS_KEPT });
      const ids = [...new Set(rows.map((r) => r.project_id))];
      const projects = ids.length ? await m.find(Project, { select: { id: true, name: true }, where: { id: In(ids) } }) : [];
      const names = new Map(projects.map((p) => [p.id, p.name]));
      const peeks = rows.map((r) => ({
        id: r.id,
        project_id: r.project_id,
        project_name: names.get(r.project_id) ?? null,
        viewer: r.viewer,
        via: r.via,
        document_count: r.document_count,
        created_at: r.created_at.toISOString(),
      }));
      return { peeks, total: peeks.length };
    });
  }
}
