import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../database/columns';
import { TrackState } from './sprint.constants';

/** The state of a named lane: a deferred or skipped track's items are not handed out. */
@Entity('sprint_tracks')
export class SprintTrack {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  project_id!: string;

  @PrimaryColumn('text')
  name!: string;

  @Column('text')
  state!: TrackState;

  @TimestampColumn()
  updated_at!: Date;
}
