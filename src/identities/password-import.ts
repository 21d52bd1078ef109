import { Injectable } from '@nestjs/common';
import { hash, type Algorithm } from '@node-rs/argon2';
import type { Argon2Config, IdentitiesConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { IdentitiesError } from './identities.errors.js';
import { PasswordHashing } from './password-hashing.js';

/** `@node-rs/argon2` declares Algorithm as a const enum, which is not emitted; its value for argon2id. */
const ARGON2ID = 2 as Algorithm;

/** PHC strings of argon2id / argon2i, and modular-crypt bcrypt ($2a$, $2b$, $2y$; cost 04–31). */
const ARGON2_PHC = /^\$argon2(id|i)\$(v=\d+\$)?m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;
const BCRYPT = /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/;

/**
 * Turns the `credentials.password.config` of an import into the hash to store: a supplied hash is
 * checked for format and kept as it is; a clear-text password is hashed with argon2id. The clear text
 * is never stored or logged.
 */
@Injectable()
export class PasswordImport {
  private readonly argon2: Argon2Config;

  constructor(
    @InjectConfig('identities') identities: IdentitiesConfig,
    private readonly hashing: PasswordHashing,
  ) {
    this.argon2 = identities.argon2;
  }

  async hashedPassword(config: { readonly hashed_password?: string; readonly password?: string }): Promise<string> {
    const field = 'credentials.password.config';
    if ((config.hashed_password === undefined) === (config.password === undefined)) {
      throw IdentitiesError.invalidRequest(field, 'give exactly one of hashed_password and password');
    }
    if (config.hashed_password !== undefined) {
      if (!ARGON2_PHC.test(config.hashed_password) && !BCRYPT.test(config.hashed_password)) {
        throw IdentitiesError.invalidRequest(
          `${field}.hashed_password`,
          'must be an argon2id or argon2i PHC string or a bcrypt ($2a$, $2b$, $2y$) hash',
        );
      }
      return config.hashed_password;
    }
    return this.hashing.run(() =>
      hash(config.password!, {
        algorithm: ARGON2ID,
        memoryCost: this.argon2.memoryKib,
        timeCost: this.argon2.iterations,
        parallelism: this.argon2.parallelism,
      }),
    );
  }
}
