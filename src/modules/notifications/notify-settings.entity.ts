import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** Where a project's notifications go (GET/PATCH /projects/{id}/ntfy). */
@Entity('notify_settings')
export class NotifySettings {
  @PrimaryIdColumn()
  project_id!: string;

  @Column('text', { nullable: true })
  notify_url!: string | null;

  @Column('text', { nullable: true })
  notify_email!: string | null;

  @TimestampColumn()
  updated_at!: Date;
}
