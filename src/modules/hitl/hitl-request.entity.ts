import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

export const HITL_URGENCIES = ['normal', 'high', 'blocking'] as const;
export type HitlUrgency = (typeof HITL_URGENCIES)[number];
export const HITL_STATUSES = ['pending', 'answered', 'dismissed'] as const;
export type HitlStatus = (typeof HITL_STATUSES)[number];

/** A question a session asks a person (human in the loop). */
@Entity('hitl_requests')
export class HitlRequest {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @IdColumn()
  session_id!: string;

  @Column('text')
  question!: string;

  @Column('text', { nullable: true })
  context!: string | null;

  @Column('text')
  urgency!: HitlUrgency;

  @Column('text')
  status!: HitlStatus;

  @Column('text', { nullable: true })
  answer!: string | null;

  @Column('text', { nullable: true })
  answered_by!: string | null;

  @Column('text')
  assigned_to!: string;

  @TimestampColumn()
  created_at!: Date;

  /** When the request left `pending` (answered or dismissed). */
  @TimestampColumn({ nullable: true })
  answered_at!: Date | null;
}
