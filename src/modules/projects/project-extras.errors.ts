import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

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
  OutsideRepository = 'OUTSIDE_REPOSITORY',
  RepositoryUnavailable = 'REPOSITORY_UNAVAILABLE',
  InstructionsChanged = 'INSTRUCTIONS_CHANGED',
  ReviewSessionRequired = 'REVIEW_SESSION_REQUIRED',
}

const STATUS: StatusTable<ProjectExtrasErrorCode> = {
  [ProjectExtrasErrorCode.ParentNotFound]: HttpStatus.NOT_FOUND,
  [ProjectExtrasErrorCode.FileNotFound]: HttpStatus.NOT_FOUND,
  [ProjectExtrasErrorCode.SectionNotFound]: HttpStatus.NOT_FOUND,
  [ProjectExtrasErrorCode.ParentIsSelf]: HttpStatus.BAD_REQUEST,
  [ProjectExtrasErrorCode.FileTooLarge]: HttpStatus.BAD_REQUEST,
  [ProjectExtrasErrorCode.ReadmeProtected]: HttpStatus.FORBIDDEN,
  [ProjectExtrasErrorCode.ParentIsSubproject]: HttpStatus.CONFLICT,
  [ProjectExtrasErrorCode.HasSubprojects]: HttpStatus.CONFLICT,
  [ProjectExtrasErrorCode.TooManyFiles]: HttpStatus.CONFLICT,
  [ProjectExtrasErrorCode.SectionAmbiguous]: HttpStatus.CONFLICT,
  [ProjectExtrasErrorCode.SectionMalformed]: HttpStatus.CONFLICT,
  [ProjectExtrasErrorCode.OutsideRepository]: HttpStatus.FORBIDDEN,
  [ProjectExtrasErrorCode.RepositoryUnavailable]: HttpStatus.CONFLICT,
  [ProjectExtrasErrorCode.InstructionsChanged]: HttpStatus.CONFLICT,
  [ProjectExtrasErrorCode.ReviewSessionRequired]: HttpStatus.BAD_REQUEST,
};

/** Refusals of a project's parent, icon, organization status, agent instructions and markdown files. */
export class ProjectExtrasError extends DomainErrorOf(STATUS) {
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

  static outsideRepository(filename: string) {
    return new ProjectExtrasError(
      ProjectExtrasErrorCode.OutsideRepository,
      `${filename} leads outside the repository (a symlink or a non-regular file): only files inside executor_config.repo_path are edited`,
    );
  }

  static repositoryUnavailable(reason: string) {
    return new ProjectExtrasError(ProjectExtrasErrorCode.RepositoryUnavailable, `the project's repository cannot be used: ${reason}`);
  }

  static instructionsChanged(filename: string) {
    return new ProjectExtrasError(
      ProjectExtrasErrorCode.InstructionsChanged,
      `${filename} changed since this edit was proposed: nothing was written; propose the edit again against the current file`,
    );
  }

  static reviewSessionRequired(filename: string) {
    return new ProjectExtrasError(
      ProjectExtrasErrorCode.ReviewSessionRequired,
      `session_id is required: an edit of ${filename} in the repository is reviewed by a person, asked by a session of the project (or pass force=true to write it at once)`,
    );
  }
}
