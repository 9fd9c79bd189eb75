import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../database/columns';
import { PkgEcosystem } from './pkg-guard.constants';

/** One allow or deny rule of the workspace's package-install gate. */
@Entity('pkg_guard_rules')
export class PkgGuardRule {
  @PrimaryColumn('text')
  ecosystem!: PkgEcosystem;

  @PrimaryColumn('text')
  pattern!: string;

  @Column('text')
  action!: 'allow' | 'deny';

  @Column('text', { nullable: true })
  reason!: string | null;

  @TimestampColumn()
  created_at!: Date;
}
