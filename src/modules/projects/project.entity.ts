import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('projects')
export class Project {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column('text')
  name!: string;

  /** The name folded for comparison; unique per tenant. */
  @Column('text')
  name_key!: string;

  @Column()
  created_at!: Date;

  @Column()
  updated_at!: Date;
}
