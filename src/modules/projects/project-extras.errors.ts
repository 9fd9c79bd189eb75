import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum ProjectExtrasErrorCode {
  ParentNotFound = 'PARENT_NOT_FOUND',
  ParentIsSelf = 'PARENT_IS_SELF',
  ParentIsSubproject = 'PARENT_IS_SUBPROJECT',
  HasSubprojects = 'PROJECT_HAS_SUBPROJECTS',
  FileNotFound = 'FILE_NOT_FOUND',
  TooManyFiles = 'TOO_MANY_FILES',
  FileTooLarge = 'FILE_TOO_LARGE',
  ReadmeProtected = 'README_PROTECTED',
  SectionNotFound = 'SECTION_NOT_FOUND',
  SectionAmbiguous = 'SECTION_AMBIGUOUS',
  SectionMalformed = 'SECTION_MALFORMED',
}

/** Refusals of a project's parent, icon, organization status, agent instructions and markdown files. */
export class ProjectExtrasError extends DomainError<ProjectExtrasErrorCode> {
  static parentNotFound(id: string) {
    return new ProjectExtrasError(ProjectExtrasErrorCode.ParentNotFound, `parent project not found: ${id}`);
  }

  static parentIsSelf() {
    return new ProjectExtrasError(ProjectExtrasErrorCode.ParentIsSelf, 'a project cannot be its own parent');
  }

  static parentIsSubproject(parentId: string) {
    return new ProjectExtrasError(
      ProjectExtrasErrorCode.ParentIsSubproject,
      `project ${parentId} is itself a subproject: subprojects are one level deep, so it cannot be a parent`,
    );
  }

  static hasSubprojects(id: string) {
    return new ProjectExtrasError(ProjectExtrasErrorCode.HasSubprojects, `project ${id} has subprojects: subprojects are one level deep, so it cannot get a parent`);
  }

  static fileNotFound(filename: string) {
    return new ProjectExtrasError(ProjectExtrasErrorCode.FileNotFound, `file not found: ${filename}`);
  }

  static tooManyFiles(max: number) {
    return new ProjectExtrasError(ProjectExtrasErrorCode.TooManyFiles, `a project holds at most ${max} markdown files`);
  }

  static fileTooLarge(max: number) {
    return new ProjectExtrasError(ProjectExtrasErrorCode.FileTooLarge, `the file would be longer than ${max} characters`);
  }

  static readmeProtected(filename: string) {
    return new ProjectExtrasError(
      ProjectExtrasErrorCode.ReadmeProtected,
      `${filename} is edited by people: update_md_section does not change README files (PUT the whole file instead)`,
    );
  }

  static sectionNotFound(filename: string, section: string) {
    return new ProjectExtrasError(
      ProjectExtrasErrorCode.SectionNotFound,
      `${filename} has no section ${section} (<!-- baton:begin ${section} --> ... <!-- baton:end ${section} -->); pass create=true to add it`,
    );
  }

  static sectionAmbiguous(filename: string, section: string) {
    return new ProjectExtrasError(ProjectExtrasErrorCode.SectionAmbiguous, `${filename} holds section ${section} more than once`);
  }

  static sectionMalformed(filename: string, section: string) {
    return new ProjectExtrasError(ProjectExtrasErrorCode.SectionMalformed, `${filename}: section ${section} has a begin marker without a matching end marker after it`);
  }

  get httpStatus(): number {
    switch (this.code) {
      case ProjectExtrasErrorCode.ParentNotFound:
      case ProjectExtrasErrorCode.FileNotFound:
      case ProjectExtrasErrorCode.SectionNotFound:
        return 404;
      case ProjectExtrasErrorCode.ParentIsSelf:
      case ProjectExtrasErrorCode.FileTooLarge:
        return 400;
      case ProjectExtrasErrorCode.ReadmeProtected:
        return 403;
      case ProjectExtrasErrorCode.ParentIsSubproject:
      case ProjectExtrasErrorCode.HasSubprojects:
      case ProjectExtrasErrorCode.TooManyFiles:
      case ProjectExtrasErrorCode.SectionAmbiguous:
      case ProjectExtrasErrorCode.SectionMalformed:
        return 409;
      default:
        return assertUnreachable(this.code);
    }
  }
}
