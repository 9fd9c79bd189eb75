import { Module } from '@nestjs/common';
import { OpenApiDocuments } from './openapi-documents.service';
import { OpenApiController } from './openapi.controller';

@Module({ controllers: [OpenApiController], providers: [OpenApiDocuments] })
export class OpenApiModule {}
