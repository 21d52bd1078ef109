import { Injectable } from '@nestjs/common';
import type { NumberedPage } from '../common/pagination/numbered-page.js';
import type { CreateIdentityDto } from './dto/create-identity.dto.js';
import type { UpdateIdentityDto } from './dto/update-identity.dto.js';
import { IdentitiesRepository } from './identities.repository.js';
import { parseIdentityListFilter } from './identity-list-filter.js';
import type { IdentityRecord } from './identity-record.js';
import { PasswordImport } from './password-import.js';
import type { IdentitySchema } from './schemas/identity-schema.js';
import { IdentitySchemaRegistry } from './schemas/identity-schema-registry.js';

/** The identities context's API: create, read, list, replace and delete identities. Throws IdentitiesError. */
@Injectable()
export class IdentitiesService {
  constructor(
    private readonly repository: IdentitiesRepository,
    private readonly schemas: IdentitySchemaRegistry,
    private readonly passwords: PasswordImport,
  ) {}

  /** Validates the traits, derives identifiers and addresses, and stores everything in one transaction. */
  async create(body: CreateIdentityDto): Promise<IdentityRecord> {
    const schema = this.schemas.resolve(body.schema_id);
    const traits = body.traits ?? {};
    const derived = schema.validate(traits);
    const hashedPassword =
      body.credentials === undefined ? undefined : await this.passwords.hashedPassword(body.credentials.password.config);
    return this.repository.insert({ schemaId: schema.id, traits, derived }, hashedPassword);
  }

  get(id: string): Promise<IdentityRecord> {
    return this.repository.get(id);
  }

  /** `query` is the request's query string: pagination is parsed by the caller, filters here. */
  list(page: NumberedPage, query: Readonly<Record<string, unknown>>): Promise<{ records: IdentityRecord[]; total: number }> {
    return this.repository.findPage(page, parseIdentityListFilter(query, this.schemas.identifierTraitPaths));
  }

  /** Full replace of schema and traits; an empty schema_id keeps the current schema. Credentials stay. */
  replace(id: string, body: UpdateIdentityDto): Promise<IdentityRecord> {
    return this.repository.replace(id, (current) => {
      const schema: IdentitySchema = this.schemas.resolve(
        body.schema_id === undefined || body.schema_id === '' ? current.schemaId : body.schema_id,
      );
      return { schemaId: schema.id, traits: body.traits, derived: schema.validate(body.traits) };
    });
  }

  delete(id: string): Promise<void> {
    return this.repository.delete(id);
  }
}
