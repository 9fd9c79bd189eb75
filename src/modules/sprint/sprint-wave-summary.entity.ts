import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../database/columns';

/** The completion record of a wave, written once when its last item reached a terminal status. */
@Entity('sprint_wave_summaries')
export class SprintWaveSummary {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  project_id!: string;

  @PrimaryColumn('text')
  wave!: string;

  @TimestampColumn()
  completed_at!: Date;

  @Column('integer')
  item_count!: number;

  /** JSON object: items per terminal status. */
  @Column('text')
  counts!: string;

  /** JSON array of {id, slug, title, status, completed_at} as they were at completion. */
  @Column('text')
  items!: string;
}
