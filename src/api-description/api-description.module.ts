import { Module } from '@nestjs/common';
import { RouteAuditModule } from '../common/auth/route-audit.module.js';
import { OpenApiController } from './openapi.controller.js';
import { OpenApiDocumentBuilder } from './openapi-document.builder.js';

/** The service's OpenAPI 3.1 description, generated from its routes, DTOs and error shapes. */
@Module({
  imports: [RouteAuditModule],
  controllers: [OpenApiController],
  providers: [OpenApiDocumentBuilder],
  exports: [OpenApiDocumentBuilder],
})
export class ApiDescriptionModule {}
