import { Injectable } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box.js';
import { SecretBoxError } from '../common/crypto/secret-box.error.js';
import type { SecretsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import type { PrivateJwkMembers } from './jwk.js';
import { KeysError, KeysErrorCode } from './keys.errors.js';

/**
 * Seals the private members of a key for storage and opens them again. The associated data is the
 * key's set and kid, so a sealed value copied onto another row does not open.
 */
@Injectable()
export class PrivateKeyCipher {
  private readonly box: SecretBox;

  constructor(@InjectConfig('secrets') secrets: SecretsConfig) {
    this.box = new SecretBox(secrets.system, 'jwk-private');
  }

  seal(set: string, kid: string, members: PrivateJwkMembers): string {
    return this.box.seal(JSON.stringify(members), associatedData(set, kid));
  }

  /** @throws KeysError (Undecryptable, a 500) when no configured secret opens the value. */
  open(set: string, kid: string, sealed: string): PrivateJwkMembers {
    try {
      return JSON.parse(this.box.openString(sealed, associatedData(set, kid))) as PrivateJwkMembers;
    } catch (error) {
      const why =
        error instanceof SecretBoxError && error.failure === 'unknown_secret'
          ? 'it was encrypted under a system secret that is no longer in SECRETS_SYSTEM'
          : 'the stored value does not authenticate';
      // No `cause`: this message is the useful one to log, and it holds nothing secret.
      throw new KeysError(KeysErrorCode.Undecryptable, `The private key ${kid} of set ${set} cannot be decrypted: ${why}.`);
    }
  }
}

function associatedData(set: string, kid: string): string {
  return JSON.stringify(['jwk', set, kid]);
}
