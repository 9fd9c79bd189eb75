import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum ProjectErrorCode {
  NotFound = 'PROJECT_NOT_FOUND',
  NameTaken = 'PROJECT_NAME_TAKEN',
}

const STATUS: StatusTable<ProjectErrorCode> = {
  [ProjectErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [ProjectErrorCode.NameTaken]: HttpStatus.CONFLICT,
};

export class ProjectError extends DomainErrorOf(STATUS) {
  static notFound(idOrName: string) {
    return new ProjectError(ProjectErrorCode.NotFound, `project not found: ${idOrName}`);
  }

  static nameTaken(name: string, existingId: string) {
    return new ProjectError(ProjectErrorCode.NameTaken, `a project named "${name}" already exists`, existingId ? { existing_project_id: existingId } : undefined);
  }
}
