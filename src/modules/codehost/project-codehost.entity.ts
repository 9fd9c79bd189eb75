import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/**
 * A project's code-host repository and the access it uses. Hosted: `account_id` and
 * `account_login` name a signed-in person's connection (control.codehost_connections), whose
 * token is opened only when a call needs it. Self-hosted: `token_sealed` holds the personal access
 * token (SecretBox, purpose `codehost-token`); it is never returned or logged.
 */
@Entity('project_codehost')
export class ProjectCodehost {
  @PrimaryIdColumn()
  project_id!: string;

  @Column('text')
  repo_owner!: string;

  @Column('text')
  repo_name!: string;

  @Column('text')
  account_login!: string;

  @IdColumn({ nullable: true })
  account_id!: string | null;

  @Column({ type: 'text', nullable: true })
  token_sealed!: string | null;

  @TimestampColumn()
  connected_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
