import { Injectable } from '@nestjs/common';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { PkgCheckDto } from './dto/pkg-check.dto';
import { PkgRulesDto } from './dto/pkg-rules.dto';
import { PkgGuardRule } from './pkg-guard-rule.entity';
import { PkgEcosystem } from './pkg-guard.constants';
import { checkPackage, PkgVerdict } from './pkg-guard.util';

export interface PkgRuleView {
  ecosystem: PkgEcosystem;
  pattern: string;
  action: 'allow' | 'deny';
  reason: string | null;
}

/** The package-install gate: the workspace's rules, and the verdict on one package (pkg-guard.util). */
@Injectable()
export class PkgGuardService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  async check(input: PkgCheckDto): Promise<PkgVerdict & { ecosystem: PkgEcosystem; name: string; version: string | null }> {
    const ecosystem = input.ecosystem ?? 'npm';
    const rules = await this.db.read((m) => m.find(PkgGuardRule, { where: { ecosystem }, order: { pattern: 'ASC' } }));
    return { ecosystem, name: input.name, version: input.version ?? null, ...checkPackage(ecosystem, input.name, input.version ?? null, rules) };
  }

  async rules(): Promise<{ rules: PkgRuleView[] }> {
    const rows = await this.db.read((m) => m.find(PkgGuardRule, { order: { ecosystem: 'ASC', pattern: 'ASC' } }));
    return { rules: rows.map(({ ecosystem, pattern, action, reason }) => ({ ecosystem, pattern, action, reason })) };
  }

  /** Replaces the whole rule set; one pattern may appear once per ecosystem. */
  async replaceRules(input: PkgRulesDto): Promise<{ rules: PkgRuleView[] }> {
    const seen = new Set<string>();
    const now = this.clock.now();
    const rows: PkgGuardRule[] = input.rules.map((r, i) => {
      const ecosystem = r.ecosystem ?? 'npm';
      const key = `${ecosystem} ${r.pattern.toLowerCase()}`;
      if (seen.has(key)) throw RequestError.invalidInput(`rules[${i}]: ${r.pattern} (${ecosystem}) is listed twice`);
      seen.add(key);
      return { ecosystem, pattern: r.pattern, action: r.action, reason: r.reason ?? null, created_at: now };
    });
    await this.db.transaction(async (m) => {
      await m.createQueryBuilder().delete().from(PkgGuardRule).execute();
      if (rows.length) await m.insert(PkgGuardRule, rows);
    });
    return this.rules();
  }
}
