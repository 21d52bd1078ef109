import { Injectable } from '@nestjs/common';
import { importJWK, type CryptoKey } from 'jose';
import { sha256Base64url } from '../common/crypto/digest.js';
import type { JsonWebKeyEntity } from './entities/json-web-key.entity.js';
import { keyMaterial, type PublicJwk } from './jwk.js';
import { isKeyAlgorithm, type KeyAlgorithm } from './key-algorithms.js';
import { KeyCache } from './key-cache.js';
import { generateKey } from './key-generator.js';
import type { KeyRecord } from './key-record.js';
import { MAX_KEYS_PER_SET, PUBLISHED_SETS } from './key-sets.js';
import { checkName, checkUse, validateJwk, validateKeySet, type JwkInput, type ValidatedKey } from './key-validator.js';
import { toPublicJwk } from './keys.mapper.js';
import { KeysError, KeysErrorCode } from './keys.errors.js';
import { KeysRepository, type NewKeyRow } from './keys.repository.js';
import { PrivateKeyCipher } from './private-key-cipher.js';

export interface GenerateKeyRequest {
  readonly alg: string;
  readonly kid?: string;
  readonly use?: string;
}

/** The key that signs for a set: its newest asymmetric private key meant for signatures. */
export interface SigningKey {
  readonly kid: string;
  readonly alg: KeyAlgorithm;
  readonly key: CryptoKey;
}

/** A public key of a set that verifies signatures. */
export interface VerificationKey {
  readonly kid: string;
  readonly alg: KeyAlgorithm;
  readonly key: CryptoKey;
}

/** The public JWKS document, serialised once per change. */
export interface SerializedJwks {
  readonly body: string;
  /** Strong validator of `body`, for `If-None-Match`. */
  readonly etag: string;
}

/**
 * JSON Web Key sets: the admin operations behind `/keys`, the public JWKS, and, for the other
 * contexts, the keys to sign and verify with. Every change is announced through the KeyCache so that
 * all instances drop what they cached.
 */
@Injectable()
export class KeysService {
  constructor(
    private readonly repository: KeysRepository,
    private readonly cipher: PrivateKeyCipher,
    private readonly cache: KeyCache,
  ) {}

  /** Generates one key and adds it to the set (created if absent) as its newest key; returns that key. */
  async generate(set: string, request: GenerateKeyRequest): Promise<KeyRecord> {
    checkName('set', set);
    if (!isKeyAlgorithm(request.alg)) {
      throw new KeysError(KeysErrorCode.UnsupportedAlgorithm, `alg ${request.alg} cannot be generated.`);
    }
    const use = checkUse(request.use) ?? 'sig';
    if (request.kid !== undefined) checkName('kid', request.kid);
    const key = await generateKey(request.alg, use, request.kid);
    await this.repository.add(set, this.toRow(set, key), this.cache.changed(set));
    return key;
  }

  /** Replaces the whole set with the given keys (first = newest). Nothing is stored unless all are valid. */
  async importSet(set: string, keys: readonly JwkInput[]): Promise<KeyRecord[]> {
    checkName('set', set);
    // Checked again with the others below; here so that an oversized set costs no key checks.
    if (keys.length > MAX_KEYS_PER_SET) {
      throw new KeysError(KeysErrorCode.TooManyKeys, `A key set holds at most ${MAX_KEYS_PER_SET} keys, not ${keys.length}.`);
    }
    const validated: ValidatedKey[] = [];
    for (const [index, key] of keys.entries()) validated.push(await validateJwk(key, { index }));
    validateKeySet(validated);
    await this.repository.replaceSet(
      set,
      validated.map((key) => this.toRow(set, key)),
      this.cache.changed(set),
    );
    return validated;
  }

  /** Adds the key, or replaces the one with the same kid; either way it becomes the newest of the set. */
  async importKey(set: string, kid: string, key: JwkInput): Promise<KeyRecord> {
    checkName('set', set);
    checkName('kid', kid);
    const validated = await validateJwk(key, { kidFromPath: kid });
    await this.repository.replaceKey(set, this.toRow(set, validated), this.cache.changed(set));
    return validated;
  }

  /** Every key of the set, newest first, private members opened. */
  async getSet(set: string): Promise<KeyRecord[]> {
    const rows = storableName(set) ? await this.repository.findSet(set) : [];
    if (rows.length === 0) throw new KeysError(KeysErrorCode.SetNotFound, `Key set ${set} does not exist.`);
    return rows.map((row) => this.toRecord(row));
  }

  async getKey(set: string, kid: string): Promise<KeyRecord> {
    const row = storableName(set) && storableName(kid) ? await this.repository.findKey(set, kid) : null;
    if (row === null) throw new KeysError(KeysErrorCode.KeyNotFound, `Key ${kid} does not exist in set ${set}.`);
    return this.toRecord(row);
  }

  async deleteSet(set: string): Promise<void> {
    if (!storableName(set)) throw new KeysError(KeysErrorCode.SetNotFound, `Key set ${set} does not exist.`);
    await this.repository.deleteSet(set, this.cache.changed(set));
  }

  async deleteKey(set: string, kid: string): Promise<void> {
    if (!storableName(set) || !storableName(kid))
      throw new KeysError(KeysErrorCode.KeyNotFound, `Key ${kid} does not exist in set ${set}.`);
    await this.repository.deleteKey(set, kid, this.cache.changed(set));
  }

  /**
   * The key to sign with for a set: its newest asymmetric key that has a private part and is not
   * meant for encryption. A set that does not exist is created with one RS256 key first (as Hydra
   * does for its own sets). Cached until the set changes.
   */
  signingKey(set: string): Promise<SigningKey> {
    return this.cache.forSet('signing', set, () => this.loadSigningKey(set));
  }

  /** The public keys of a set that verify signatures (asymmetric, not `use: enc`), newest first; cached. */
  verificationKeys(set: string): Promise<readonly VerificationKey[]> {
    return this.cache.forSet('verification', set, () => this.loadVerificationKeys(set));
  }

  /** `/.well-known/jwks.json`: public parts of the asymmetric keys of the published sets; cached. */
  publicJwks(): Promise<SerializedJwks> {
    return this.cache.publicJwks(() => this.loadPublicJwks());
  }

  /**
   * Creates the set with one RS256 signing key unless it has keys. Safe when instances race: the
   * insert happens under the set's lock only if the set is still empty. True when this call created it.
   */
  async ensureSet(set: string): Promise<boolean> {
    if (await this.repository.hasKeys(set)) return false;
    const key = await generateKey('RS256', 'sig');
    return this.repository.addIfSetEmpty(set, this.toRow(set, key), this.cache.changed(set));
  }

  private async loadSigningKey(set: string): Promise<SigningKey> {
    let rows = await this.repository.findSet(set);
    if (rows.length === 0) {
      await this.ensureSet(set);
      rows = await this.repository.findSet(set);
    }
    const row = rows.find((candidate) => candidate.kty !== 'oct' && candidate.use !== 'enc' && candidate.sealedPrivate !== null);
    if (row === undefined) throw new KeysError(KeysErrorCode.NoSigningKey, `Key set ${set} has no private key to sign with.`);
    const record = this.toRecord(row);
    const key = (await importJWK({ ...keyMaterial(record.publicJwk), ...record.privateMembers }, record.publicJwk.alg)) as CryptoKey;
    return { kid: record.publicJwk.kid, alg: record.publicJwk.alg, key };
  }

  private async loadVerificationKeys(set: string): Promise<VerificationKey[]> {
    const rows = await this.repository.findSet(set);
    const usable = rows.filter((row) => row.kty !== 'oct' && row.use !== 'enc');
    return Promise.all(
      usable.map(async (row) => ({
        kid: row.publicJwk.kid,
        alg: row.publicJwk.alg,
        key: (await importJWK(keyMaterial(row.publicJwk), row.publicJwk.alg)) as CryptoKey,
      })),
    );
  }

  private async loadPublicJwks(): Promise<SerializedJwks> {
    const rows = await this.repository.findPublished(PUBLISHED_SETS);
    const byKid = new Map<string, PublicJwk>();
    for (const set of PUBLISHED_SETS) {
      for (const row of rows) {
        // Symmetric keys are secrets: never published. A kid already published by an earlier set wins.
        if (row.setName !== set || row.kty === 'oct' || byKid.has(row.publicJwk.kid)) continue;
        byKid.set(row.publicJwk.kid, toPublicJwk(row.publicJwk));
      }
    }
    const body = JSON.stringify({ keys: [...byKid.values()] });
    return { body, etag: `"${sha256Base64url(body)}"` };
  }

  private toRow(set: string, key: ValidatedKey): NewKeyRow {
    const kid = key.publicJwk.kid;
    return {
      kid,
      publicJwk: key.publicJwk,
      sealedPrivate: key.privateMembers === undefined ? undefined : this.cipher.seal(set, kid, key.privateMembers),
    };
  }

  private toRecord(row: JsonWebKeyEntity): KeyRecord {
    return {
      publicJwk: row.publicJwk,
      privateMembers: row.sealedPrivate === null ? undefined : this.cipher.open(row.setName, row.kid, row.sealedPrivate),
    };
  }
}

/** PostgreSQL text cannot hold NUL: a set or key id holding one exists nowhere (404, not a failed query). */
function storableName(name: string): boolean {
  return !name.includes('\0');
}
