import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum AgentInterfacesErrorCode {
  TenantNotFound = 'TENANT_NOT_FOUND',
}

const STATUS: StatusTable<AgentInterfacesErrorCode> = {
  [AgentInterfacesErrorCode.TenantNotFound]: HttpStatus.NOT_FOUND,
};

export class AgentInterfacesError extends DomainErrorOf(STATUS) {
  /** Another workspace's id answers as an unknown one: ids cannot be probed. */
  static tenantNotFound(id: string) {
    return new AgentInterfacesError(AgentInterfacesErrorCode.TenantNotFound, `tenant not found: ${id}`);
  }
}
