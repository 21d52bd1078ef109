import { randomBytes } from 'node:crypto';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { hash as argon2Hash, verify as argon2Verify, type Algorithm } from '@node-rs/argon2';
import { verify as bcryptVerify } from '@node-rs/bcrypt';
import type { Argon2Config, IdentitiesConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { PasswordHashing } from '../../identities/index.js';

/** `@node-rs/argon2` declares Algorithm as a const enum, which is not emitted; its value for argon2id. */
const ARGON2ID = 2 as Algorithm;
const ARGON2 = /^\$argon2(id|i)\$/;
const ARGON2ID_PARAMETERS = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/;
const BCRYPT = /^\$2[abxy]?\$/;
/** bcrypt reads at most 72 bytes of a password: anything after them would be ignored. */
const BCRYPT_MAX_BYTES = 72;

/**
 * Checks passwords against stored hashes: argon2id/argon2i (PHC) and bcrypt (imported), whatever the
 * configured algorithm (as Kratos' hash comparator). When the identity has no usable hash, or the
 * identifier is unknown, the password is checked against a dummy argon2id hash of the configured
 * parameters, so the answer takes as long as a real check (no account enumeration by timing).
 * A password longer than bcrypt's 72 bytes never matches a bcrypt hash (no silent truncation, as
 * Kratos' comparator): otherwise any password sharing the first 72 bytes would log in.
 */
@Injectable()
export class PasswordVerifier implements OnModuleInit {
  private readonly argon2: Argon2Config;
  private dummyHash: string | undefined;

  constructor(
    @InjectConfig('identities') identities: IdentitiesConfig,
    private readonly hashing: PasswordHashing,
  ) {
    this.argon2 = identities.argon2;
  }

  async onModuleInit(): Promise<void> {
    this.dummyHash = await this.hashing.run(() => argon2Hash(randomBytes(32).toString('base64url'), this.options()));
  }

  /** Whether `password` matches `hashed`; a missing or unknown hash costs a dummy check and is false. */
  async verify(password: string, hashed: string | undefined): Promise<boolean> {
    if (hashed !== undefined && ARGON2.test(hashed)) return this.hashing.run(() => argon2Verify(hashed, password)).catch(() => false);
    if (hashed !== undefined && BCRYPT.test(hashed) && Buffer.byteLength(password, 'utf8') <= BCRYPT_MAX_BYTES) {
      return this.hashing.run(() => bcryptVerify(password, hashed)).catch(() => false);
    }
    await this.spendDummyCheck(password);
    return false;
  }

  /** An imported bcrypt hash, or argon2 with other parameters than configured: re-hash after a successful login. */
  needsRehash(hashed: string): boolean {
    const match = ARGON2ID_PARAMETERS.exec(hashed);
    if (match === null) return true;
    return (
      Number(match[1]) !== this.argon2.memoryKib ||
      Number(match[2]) !== this.argon2.iterations ||
      Number(match[3]) !== this.argon2.parallelism
    );
  }

  private async spendDummyCheck(password: string): Promise<void> {
    this.dummyHash ??= await this.hashing.run(() => argon2Hash(randomBytes(32).toString('base64url'), this.options()));
    const dummyHash = this.dummyHash;
    await this.hashing.run(() => argon2Verify(dummyHash, password)).catch(() => false);
  }

  private options(): { algorithm: Algorithm; memoryCost: number; timeCost: number; parallelism: number } {
    return {
      algorithm: ARGON2ID,
      memoryCost: this.argon2.memoryKib,
      timeCost: this.argon2.iterations,
      parallelism: this.argon2.parallelism,
    };
  }
}
