import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../database/columns';

/** The workspace settings: one row (id `singleton`), written on the first PATCH. */
@Entity('workspace_settings')
export class WorkspaceSettingsRow {
  @PrimaryColumn('text')
  id!: string;

  @Column('text', { nullable: true })
  name!: string | null;

  @Column('text')
  timezone!: string;

  @Column('integer')
  context_notes_limit!: number;

  @Column('integer')
  context_decisions_limit!: number;

  @TimestampColumn()
  updated_at!: Date;
}
