import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum KnowledgeErrorCode {
  UploadMissing = 'UPLOAD_MISSING',
  UploadNotText = 'UPLOAD_NOT_TEXT',
  UploadTooLarge = 'UPLOAD_TOO_LARGE',
  UploadBadName = 'UPLOAD_BAD_NAME',
  UploadMalformed = 'UPLOAD_MALFORMED',
  CodeIntelDisabled = 'CODE_INTEL_DISABLED',
}

const STATUS: StatusTable<KnowledgeErrorCode> = {
  [KnowledgeErrorCode.UploadMissing]: HttpStatus.BAD_REQUEST,
  [KnowledgeErrorCode.UploadBadName]: HttpStatus.BAD_REQUEST,
  [KnowledgeErrorCode.UploadMalformed]: HttpStatus.BAD_REQUEST,
  [KnowledgeErrorCode.UploadNotText]: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  [KnowledgeErrorCode.UploadTooLarge]: HttpStatus.PAYLOAD_TOO_LARGE,
  [KnowledgeErrorCode.CodeIntelDisabled]: HttpStatus.FORBIDDEN,
};

/** Refusals of document uploads and of code intelligence. */
export class KnowledgeError extends DomainErrorOf(STATUS) {
  static uploadMissing() {
    return new KnowledgeError(KnowledgeErrorCode.UploadMissing, 'file is required: send multipart/form-data with the document in a field named file');
  }

  static uploadMalformed(why: string) {
    return new KnowledgeError(KnowledgeErrorCode.UploadMalformed, `file: the upload is not a usable multipart/form-data body with one part named file (${why})`);
  }

  static uploadNotText(why: string) {
    return new KnowledgeError(KnowledgeErrorCode.UploadNotText, `file must be plain text or markdown (text/plain, text/markdown): ${why}`);
  }

  static uploadTooLarge(max: number) {
    return new KnowledgeError(KnowledgeErrorCode.UploadTooLarge, `file must be at most ${max} bytes`);
  }

  static uploadBadName(name: string) {
    return new KnowledgeError(
      KnowledgeErrorCode.UploadBadName,
      `filename must be a plain file name ending in .md or .txt (letters, digits, . _ -; no folders, no ..), got ${JSON.stringify(name.slice(0, 120))}`,
    );
  }

  static codeIntelDisabled(projectId: string) {
    return new KnowledgeError(
      KnowledgeErrorCode.CodeIntelDisabled,
      `code intelligence is off for project ${projectId} (code_intel_enabled is false in its settings or profile): the codebase map is not recorded`,
    );
  }
}
