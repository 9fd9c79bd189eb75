import { Column, Entity, PrimaryColumn } from 'typeorm';
import { IdColumn } from '../../database/columns';

/**
 * One declared resource of one item, kept beside the JSON array so that the
 * reverse lookup and the file-lock gate are index lookups and joins.
 */
@Entity('sprint_item_resources')
export class SprintItemResource {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  item_id!: string;

  @PrimaryColumn('text')
  resource!: string;

  @IdColumn()
  project_id!: string;

  /** The normalised path of a `file:` resource (how file_locks keys it); null for other kinds. */
  @Column('text', { nullable: true })
  file_path!: string | null;
}
