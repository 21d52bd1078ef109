import { Injectable } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box.js';
import type { SecretsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';

/**
 * Login and consent challenges are looked up by digest, but two answers must show them again: the
 * consent request's `login_challenge` and each consent session's `challenge`. So a copy is sealed
 * (AES-256-GCM under SECRETS_SYSTEM) with the row id as associated data; a reader of the database
 * alone learns nothing. A value sealed under a secret that was since dropped shows as ''.
 */
@Injectable()
export class ChallengeSealer {
  private readonly box: SecretBox;

  constructor(@InjectConfig('secrets') secrets: SecretsConfig) {
    this.box = new SecretBox(secrets.system, 'consent/challenge');
  }

  seal(challenge: string, kind: 'login' | 'consent', rowId: string): string {
    return this.box.seal(challenge, `${kind}:${rowId}`);
  }

  open(sealed: string, kind: 'login' | 'consent', rowId: string): string {
    try {
      return this.box.openString(sealed, `${kind}:${rowId}`);
    } catch {
      return '';
    }
  }
}
