import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum SiteErrorCode {
  NotFound = 'NOT_FOUND',
  SlugTaken = 'SLUG_TAKEN',
}

const STATUS: StatusTable<SiteErrorCode> = {
  [SiteErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [SiteErrorCode.SlugTaken]: HttpStatus.CONFLICT,
};

/** Refusals of the instance's own content: waitlist, blog, changelog. */
export class SiteError extends DomainErrorOf(STATUS) {
  static notFound(what: string, id: string) {
    return new SiteError(SiteErrorCode.NotFound, `${what} not found: ${id}`);
  }

  static slugTaken(slug: string) {
    return new SiteError(SiteErrorCode.SlugTaken, `slug is already used by another post: ${slug}`);
  }
}
