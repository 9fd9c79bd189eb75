import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../database/columns';

/** The workspace's default notification targets (GET/PATCH /settings/notifications): one row, id `singleton`. */
@Entity('workspace_notify_settings')
export class WorkspaceNotifySettings {
  @PrimaryColumn('text')
  id!: string;

  @Column('text', { nullable: true })
  notify_url!: string | null;

  @Column('text', { nullable: true })
  notify_email!: string | null;

  @TimestampColumn()
  updated_at!: Date;
}
