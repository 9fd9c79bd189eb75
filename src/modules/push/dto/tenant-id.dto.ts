import { Uuid } from '../../../common/validation/uuid.decorator';

/** The `{tenant_id}` of /tunnel/diagnostics/{tenant_id}, or the tool's argument. */
export class TenantIdDto {
  @Uuid()
  tenant_id!: string;
}
