import { CallHandler, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { Observable } from 'rxjs';
import { UPLOAD_MAX_BYTES } from './documents.constants';
import { KnowledgeError } from './knowledge.errors';

const Multipart = FileInterceptor('file', { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5 } });

/** Reads the one `file` part of a document upload into memory, capped; multer's refusals are worded as Baton's. */
@Injectable()
export class DocumentUploadInterceptor extends Multipart {
  override async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    try {
      return await super.intercept(context, next);
    } catch (error) {
      if (!(error instanceof HttpException)) throw error;
      if (error.getStatus() === HttpStatus.PAYLOAD_TOO_LARGE) throw KnowledgeError.uploadTooLarge(UPLOAD_MAX_BYTES);
      throw KnowledgeError.uploadMalformed(error.message);
    }
  }
}
