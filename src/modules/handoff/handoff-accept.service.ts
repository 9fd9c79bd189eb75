import { Injectable } from '@nestjs/common';
import { MoreThan } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { RequestError } from '../../common/errors/request-error';
import { ContextBlockService } from '../context/context-block.service';
import { requireProject } from '../projects/require-project.util';
import { AcceptHandoffDto } from './dto/accept-handoff.dto';
import { parseFrontMatter } from './front-matter.util';
import { Handoff } from './handoff.entity';
import { HandoffLedger, HandoffMeta, HandoffProblem, HandoffProblemCode, toHandoffMeta } from './handoff-ledger.service';
import { HandoffMaterialService } from './handoff-material.service';

export interface AcceptAnswer {
  status: 'ok' | HandoffProblemCode;
  valid: boolean;
  problems: HandoffProblem[];
  handoff: HandoffMeta | null;
}

/** accept_handoff: whether a handoff is still good to work from. */
@Injectable()
export class HandoffAcceptService {
  constructor(
    private readonly db: TenantDb,
    private readonly ledger: HandoffLedger,
    private readonly blocks: ContextBlockService,
    private readonly material: HandoffMaterialService,
  ) {}

  /** Read-only: nothing is consumed or changed. */
  async accept(projectId: string, input: AcceptHandoffDto): Promise<AcceptAnswer> {
    if (!input.handoff_id && !input.token && input.content === undefined) {
      throw RequestError.invalidInput('give handoff_id, token or content (the handoff as received)');
    }
    const fromContent = input.content !== undefined ? parseFrontMatter(input.content)?.fields.handoff_id : undefined;
    const handoffId = input.handoff_id ?? (typeof fromContent === 'string' && isUuid(fromContent) ? fromContent : undefined);
    const ref = input.handoff_id ?? input.token ?? handoffId ?? 'in the content given';
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const handoff = handoffId || input.token ? await this.ledger.find(m, { handoff_id: handoffId, token: handoffId ? undefined : input.token }) : null;
      const problems = this.ledger.hardProblems(handoff, projectId, ref, input.content);
      const own = handoff !== null && handoff.project_id === projectId;
      if (own) {
        const newer = await m.findOne(Handoff, { where: { project_id: projectId, created_at: MoreThan(handoff.created_at) }, order: { created_at: 'ASC' } });
        if (newer) problems.push({ code: 'stale', detail: `a newer handoff (${newer.id}) was generated at ${newer.created_at.toISOString()}` });
        if (ContextBlockService.boardHash(await this.blocks.collect(m, projectId)) !== handoff.board_sha256) {
          problems.push({ code: 'board_diverged', detail: "the project's goal, sprint items, tasks or decisions changed since the handoff was generated" });
        }
        if (this.material.toolsSha256() !== handoff.tools_sha256) problems.push({ code: 'tools_drifted', detail: 'the MCP tools changed since the handoff was generated' });
      }
      return { status: problems[0]?.code ?? 'ok', valid: problems.length === 0, problems, handoff: own ? toHandoffMeta(handoff) : null };
    });
  }
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
