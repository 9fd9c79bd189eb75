import { Controller, Get } from '@nestjs/common';
import { DocumentPeeksService, DocumentPeekView } from './document-peeks.service';

@Controller('document-peeks')
export class DocumentPeeksController {
  constructor(private readonly peeks: DocumentPeeksService) {}

  /** The workspace's last 50 document-structure views, newest first. */
  @Get()
  list(): Promise<{ peeks: DocumentPeekView[]; total: number }> {
    return this.peeks.list();
  }
}
