import { Controller, Get, Header, Res, ServiceUnavailableException } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../common/auth/public.decorator';
import { Answers, HTML_PAGE } from '../common/http/answers.decorator';
import { publicPageHeaders, renderSitePage } from '../modules/pages/site-layout';
import { OpenApiDocuments } from './openapi-documents.service';
import type { OpenApiDocument } from './openapi-builder';
import { renderApiReference } from './openapi-page';

/** The REST API described from the code: `/openapi.json` for programs, `/openapi` for people. */
@Controller()
@Public()
export class OpenApiController {
  constructor(private readonly documents: OpenApiDocuments) {}

  @Get('openapi.json')
  @Header('Cache-Control', 'public, max-age=300')
  document(): OpenApiDocument {
    return this.required();
  }

  @Get('openapi')
  @Answers(HTML_PAGE)
  page(@Res() res: Response): void {
    const document = this.required();
    res
      .status(200)
      .set(publicPageHeaders('short'))
      .send(renderSitePage({ title: 'REST API reference', body: renderApiReference(document) }, '/openapi'));
  }

  private required(): OpenApiDocument {
    const document = this.documents.current();
    if (!document) throw new ServiceUnavailableException('the OpenAPI document is written by `npm run build` and is missing from this installation; run the build');
    return document;
  }
}
