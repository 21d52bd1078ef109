import { Get, Param } from '@nestjs/common';
import { PublicController } from '../common/auth/controllers.js';
import { IdentitySchemaRegistry } from './schemas/identity-schema-registry.js';

/** `GET /schemas/{id}` on the public listener: the raw identity schema document. */
@PublicController('schemas')
export class SchemasPublicController {
  constructor(private readonly schemas: IdentitySchemaRegistry) {}

  @Get(':id')
  get(@Param('id') id: string): Readonly<Record<string, unknown>> {
    return this.schemas.get(id).document;
  }
}
