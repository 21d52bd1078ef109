import { Get, Header } from '@nestjs/common';
import { AdminController } from '../common/auth/controllers.js';
import { OpenApiDocumentBuilder } from './openapi-document.builder.js';

/** `GET /openapi.json` on the admin listener: the description of every route of every listener. */
@AdminController('openapi.json')
export class OpenApiController {
  constructor(private readonly builder: OpenApiDocumentBuilder) {}

  @Get()
  @Header('cache-control', 'no-cache')
  document(): object {
    return this.builder.build();
  }
}
