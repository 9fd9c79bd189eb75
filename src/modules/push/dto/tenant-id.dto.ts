import { IsUUID } from 'class-validator';

/** The `{tenant_id}` of /tunnel/diagnostics/{tenant_id}, or the tool's argument. */
export class TenantIdDto {
  @IsUUID('all', { message: 'tenant_id must be a UUID' })
  tenant_id!: string;
}
