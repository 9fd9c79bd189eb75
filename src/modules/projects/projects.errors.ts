import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum ProjectErrorCode {
  NotFound = 'PROJECT_NOT_FOUND',
  NameTaken = 'PROJECT_NAME_TAKEN',
}

export class ProjectError extends DomainError<ProjectErrorCode> {
  static notFound(idOrName: string) {
    return new ProjectError(ProjectErrorCode.NotFound, `project not found: ${idOrName}`);
  }

  static nameTaken(name: string, existingId: string) {
    const error = new ProjectError(ProjectErrorCode.NameTaken, `a project named "${name}" already exists`);
    error.existingId = existingId;
    return error;
  }

  private existingId?: string;

  override get extra() {
    return this.existingId ? { existing_project_id: this.existingId } : undefined;
  }

  get httpStatus(): number {
    switch (this.code) {
      case ProjectErrorCode.NotFound:
        return 404;
      case ProjectErrorCode.NameTaken:
        return 409;
      default:
        return assertUnreachable(this.code);
    }
  }
}
