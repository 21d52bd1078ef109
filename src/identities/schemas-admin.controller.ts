import { Get, Param } from '@nestjs/common';
import { AdminController } from '../common/auth/controllers.js';
import { IdentitySchemaRegistry } from './schemas/identity-schema-registry.js';

/** `GET /schemas/{id}` on the admin listener as well: Kratos v0.6 serves it there, and its SDK calls it there. */
@AdminController('schemas')
export class SchemasAdminController {
  constructor(private readonly schemas: IdentitySchemaRegistry) {}

  @Get(':id')
  get(@Param('id') id: string): Readonly<Record<string, unknown>> {
    return this.schemas.get(id).document;
  }
}
