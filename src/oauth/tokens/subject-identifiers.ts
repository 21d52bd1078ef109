import { hkdfSync } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Client } from '../../clients/index.js';
import { sha256Hex } from '../../common/crypto/digest.js';
import { type OAuth2Config, type SecretsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';

/**
 * The `sub` a client sees (OIDC Core §8). Public clients see the local subject. Pairwise clients see
 * hex(SHA-256(sector + subject + salt)), where the sector is the host of the client's
 * sector_identifier_uri, or else the host of its redirect URIs (client registration makes sure they
 * share one host). A `force_subject_identifier` set at login accept replaces the pairwise value, as in
 * Hydra. The salt is OIDC_PAIRWISE_SALT, or derived from the first system secret.
 */
@Injectable()
export class SubjectIdentifiers {
  private readonly salt: string;

  constructor(@InjectConfig('oauth2') oauth2: OAuth2Config, @InjectConfig('secrets') secrets: SecretsConfig) {
    this.salt =
      oauth2.pairwiseSalt ??
      Buffer.from(hkdfSync('sha256', secrets.system[0] ?? '', '', 'latchkey pairwise subject salt v1', 32)).toString('hex');
  }

  forClient(client: Client, subject: string, forcedSubjectIdentifier = ''): string {
    if (client.subjectType !== 'pairwise') return subject;
    if (forcedSubjectIdentifier !== '') return forcedSubjectIdentifier;
    return sha256Hex(`${sectorOf(client)}${subject}${this.salt}`);
  }
}

/** The sector identifier host of a pairwise client. */
export function sectorOf(client: Client): string {
  const source = client.sectorIdentifierUri !== '' ? client.sectorIdentifierUri : client.redirectUris[0];
  if (source === undefined) throw new Error(`pairwise client ${client.id} has neither a sector_identifier_uri nor a redirect URI`);
  return new URL(source).host;
}
