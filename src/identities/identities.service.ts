import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { NumberedPage } from '../common/pagination/numbered-page.js';
import type { UrlsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { ChangeNotifier, type Announce } from '../database/change-notifier.js';
import type { EmbeddedRead } from '../database/named-statements.js';
import type { CreateIdentityDto } from './dto/create-identity.dto.js';
import type { IdentityResponseDto } from './dto/identity-response.dto.js';
import type { UpdateIdentityDto } from './dto/update-identity.dto.js';
import { toIdentityResponse } from './identities.mapper.js';
import { IdentitiesRepository, type ExportedPasswordCredential, type PasswordCredential } from './identities.repository.js';
import { parseIdentityListFilter } from './identity-list-filter.js';
import type { IdentityRecord } from './identity-record.js';
import type { IdentityState } from './identity-state.js';
import { PasswordImport } from './password-import.js';
import { normalizeIdentifier } from '../common/text/identifier-normalization.js';
import type { IdentitySchema } from './schemas/identity-schema.js';
import { IdentitySchemaRegistry } from './schemas/identity-schema-registry.js';

/**
 * ChangeNotifier topic announced (key = identity id) after an identity's traits or addresses changed or
 * the identity was deleted, so that caches holding identities (the whoami cache) drop them everywhere.
 */
export const IDENTITIES_CHANGED_TOPIC = 'identities';

/** An identity as a directory provisions it: traits, state, and whether its e-mail addresses count as verified. */
export interface ProvisionedIdentity {
  /** Absent: the default schema on a create, the current one on an update. */
  readonly schemaId?: string;
  readonly traits: Record<string, unknown>;
  readonly state: IdentityState;
  readonly addressesVerified: boolean;
}

/** What a set of traits means under a schema, without writing anything (see `describeTraits`). */
export interface TraitsDescription {
  readonly schemaId: string;
  /** Password login identifiers, normalized (lower case, NFC). */
  readonly identifiers: readonly string[];
  /** Recovery and verifiable addresses, `via:value`. */
  readonly addresses: readonly string[];
}

/** The identities context's API: create, read, list, replace and delete identities. Throws IdentitiesError. */
@Injectable()
export class IdentitiesService {
  constructor(
    private readonly repository: IdentitiesRepository,
    private readonly schemas: IdentitySchemaRegistry,
    private readonly passwords: PasswordImport,
    private readonly notifier: ChangeNotifier,
    @InjectConfig('urls') private readonly urls: UrlsConfig,
  ) {}

  /** The identity on the wire, as the admin API shows it: how other contexts answer with an identity. */
  toResponse(record: IdentityRecord): IdentityResponseDto {
    return toIdentityResponse(record, this.urls.issuer);
  }

  /** Validates the traits, derives identifiers and addresses, and stores everything in one transaction. */
  async create(body: CreateIdentityDto): Promise<IdentityRecord> {
    const schema = this.schemas.resolve(body.schema_id);
    const traits = body.traits ?? {};
    const derived = schema.validate(traits);
    const hashedPassword =
      body.credentials === undefined ? undefined : await this.passwords.hashedPassword(body.credentials.password.config);
    return this.repository.insert({ schemaId: schema.id, traits, derived, state: body.state }, hashedPassword);
  }

  get(id: string): Promise<IdentityRecord> {
    return this.repository.get(id);
  }

  /** `query` is the request's query string: pagination is parsed by the caller, filters here. */
  list(page: NumberedPage, query: Readonly<Record<string, unknown>>): Promise<{ records: IdentityRecord[]; total: number }> {
    return this.repository.findPage(page, parseIdentityListFilter(query, this.schemas.identifierTraitPaths));
  }

  /** Full replace of schema and traits; an empty schema_id keeps the current schema. Credentials stay. */
  async replace(id: string, body: UpdateIdentityDto): Promise<IdentityRecord> {
    const record = await this.repository.replace(
      id,
      (current) => {
        const schema: IdentitySchema = this.schemas.resolve(
          body.schema_id === undefined || body.schema_id === '' ? current.schemaId : body.schema_id,
        );
        return { schemaId: schema.id, traits: body.traits, derived: schema.validate(body.traits), state: body.state };
      },
      this.changed(id),
    );
    return record;
  }

  /** The password credentials of these identities, hashes included (admin `include_credential=password`). */
  passwordCredentials(identityIds: readonly string[]): Promise<Map<string, ExportedPasswordCredential>> {
    return this.repository.passwordCredentials(identityIds);
  }

  /** Deletes the identity and, by cascade, its credentials, addresses and self-service sessions. */
  async delete(id: string): Promise<void> {
    await this.repository.delete(id, this.changed(id));
  }

  /** Announces a change of the identity, inside its write's transaction, to every instance. */
  private changed(id: string): Announce {
    return (transaction) => this.notifier.publishWithin(transaction, IDENTITIES_CHANGED_TOPIC, id);
  }

  // --- For the directory-sync context: writes inside the caller's transaction. ---

  /**
   * Creates an identity without credentials in the caller's transaction. Traits are validated as for
   * any identity (absent schema id: the default schema).
   */
  createWithin(manager: EntityManager, write: ProvisionedIdentity): Promise<IdentityRecord> {
    const schema = this.schemas.resolve(write.schemaId);
    const derived = schema.validate(write.traits);
    return this.repository.insert(
      { schemaId: schema.id, traits: write.traits, derived, state: write.state, addressesVerified: write.addressesVerified },
      undefined,
      manager,
    );
  }

  /**
   * Replaces traits and state (the schema stays unless named) in the caller's transaction; see
   * `replace`. An update that changes nothing writes nothing.
   */
  replaceWithin(manager: EntityManager, id: string, write: ProvisionedIdentity): Promise<IdentityRecord> {
    return this.repository.replace(
      id,
      (current) => {
        const schema = this.schemas.resolve(write.schemaId ?? current.schemaId);
        const derived = schema.validate(write.traits);
        return {
          schemaId: schema.id,
          traits: write.traits,
          derived,
          state: write.state,
          addressesVerified: write.addressesVerified,
          onlyIfChanged: true,
        };
      },
      this.changed(id),
      manager,
    );
  }

  /** Sets the state only (traits unchanged), in the caller's transaction. */
  setStateWithin(manager: EntityManager, id: string, state: IdentityState): Promise<IdentityRecord> {
    return this.repository.replace(
      id,
      (current) => {
        const traits = current.traits as Record<string, unknown>;
        const schema = this.schemas.resolve(current.schemaId);
        return { schemaId: schema.id, traits, derived: schema.validate(traits), state, onlyIfChanged: true };
      },
      this.changed(id),
      manager,
    );
  }

  deleteWithin(manager: EntityManager, id: string): Promise<void> {
    return this.repository.delete(id, this.changed(id), manager);
  }

  /**
   * The identity whose login identifier or e-mail address is `email` (normalized here), or undefined;
   * an address normalization refuses (a look-alike) belongs to nobody.
   */
  async idByEmailWithin(manager: EntityManager, email: string): Promise<string | undefined> {
    const normalized = normalizeIdentifier(email);
    return normalized === undefined ? undefined : this.repository.idByEmail(normalized, manager);
  }

  /**
   * `idByEmailWithin` for many e-mails in one statement: each owned e-mail, as given, with its owner;
   * e-mails owned by nobody (or that normalization refuses) are absent.
   */
  async idsByEmailWithin(manager: EntityManager, emails: readonly string[]): Promise<Map<string, string>> {
    const normalized = new Map<string, string>();
    for (const email of emails) {
      const value = normalizeIdentifier(email);
      if (value !== undefined) normalized.set(email, value);
    }
    const owners = await this.repository.idsByEmail([...new Set(normalized.values())], manager);
    const found = new Map<string, string>();
    for (const [email, value] of normalized) {
      const owner = owners.get(value);
      if (owner !== undefined) found.set(email, owner);
    }
    return found;
  }

  // --- For the self-service context (login, registration, settings). ---

  /**
   * Validates traits against a schema (absent/empty id = the default schema) and says which login
   * identifiers and addresses they carry. Throws `invalid_traits` / `unknown_schema` like a create.
   */
  describeTraits(schemaId: string | undefined, traits: Record<string, unknown>): TraitsDescription {
    const schema = this.schemas.resolve(schemaId);
    const derived = schema.validate(traits);
    return {
      schemaId: schema.id,
      identifiers: derived.identifiers.map((entry) => entry.identifier),
      addresses: [...derived.verifiableAddresses, ...derived.recoveryAddresses].map((address) => `${address.via}:${address.value}`),
    };
  }

  /** The id a schema id resolves to: itself when it exists, the default schema's when absent (400 when unknown). */
  resolvedSchemaId(schemaId: string | undefined): string {
    return this.schemas.resolve(schemaId).id;
  }

  /** The identity's schema document (for building forms from it); the default schema when absent. */
  schemaDocument(schemaId: string | undefined): Readonly<Record<string, unknown>> {
    return this.schemas.resolve(schemaId).document;
  }

  /**
   * The password credential of the identity owning a login identifier (normalized here), with that
   * identity, or undefined, as a read to run inside another statement (see EmbeddedRead).
   * `hashedPassword` is undefined for an identity created without a password.
   */
  passwordCredentialRead(identifier: string): EmbeddedRead<PasswordCredential | undefined> {
    // A refused identifier is looked up as typed: no stored identifier has that form (the same rule refused
    // it on write), so it finds nobody, at the cost of the same statement.
    return this.repository.passwordCredentialRead(normalizeIdentifier(identifier) ?? identifier);
  }

  /** Creates an identity with a password (hashed with argon2id here): self-service registration. */
  createWithPassword(schemaId: string | undefined, traits: Record<string, unknown>, password: string): Promise<IdentityRecord> {
    return this.create({ schema_id: schemaId, traits, credentials: { password: { config: { password } } } });
  }

  /** Replaces the traits, keeping the schema (settings `profile`). */
  updateTraits(id: string, traits: Record<string, unknown>): Promise<IdentityRecord> {
    return this.replace(id, { traits });
  }

  /**
   * Sets the password (hashed with argon2id here), creating the password credential if missing:
   * settings `password`, and the re-hash of an imported bcrypt hash after a successful login.
   */
  async updatePassword(id: string, password: string): Promise<void> {
    const hashed = await this.passwords.hashedPassword({ password });
    await this.repository.setPassword(id, hashed);
  }
}
