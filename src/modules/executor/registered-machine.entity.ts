import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** A machine that runs executors for a project; alive while its heartbeat is fresh. */
@Entity('registered_machines')
export class RegisteredMachine {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  /** Unique per project: registering the same name again is the same machine. */
  @Column('text')
  name!: string;

  /** How many runs it takes at once. */
  @Column('integer')
  slots!: number;

  @TimestampColumn()
  last_heartbeat_at!: Date;

  @TimestampColumn()
  created_at!: Date;
}
