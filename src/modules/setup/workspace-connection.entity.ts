import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../database/columns';

/** A named external connection of the workspace; its secret is only ever stored sealed. */
@Entity('workspace_connections')
export class WorkspaceConnection {
  @PrimaryColumn('text')
  name!: string;

  @Column('text')
  kind!: string;

  @Column('text', { nullable: true })
  url!: string | null;

  @Column('text', { nullable: true })
  secret_sealed!: string | null;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
