import { Injectable } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box.js';
import type { SecretsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import type { PageCursor, StoredFilter } from './storage/stored-tuple.js';
import { TuplesError } from './tuples.errors.js';

/**
 * `page_token` of GET /relation-tuples: the last row of the page (a keyset cursor), sealed with
 * AES-256-GCM under SECRETS_SYSTEM (the first secret seals, every secret opens). The list's filters
 * are the associated data, so a token only opens for the query that produced it. Opaque to clients,
 * unforgeable, and free of row offsets: pages stay cheap however deep, and a write between two
 * pages neither repeats nor skips the rows around it.
 */
@Injectable()
export class PageTokenCodec {
  private readonly box: SecretBox;

  constructor(@InjectConfig('secrets') secrets: SecretsConfig) {
    this.box = new SecretBox(secrets.system, 'relation-tuples/page-token');
  }

  encode(cursor: PageCursor, filter: StoredFilter): string {
    return this.box.seal(JSON.stringify([cursor.object, cursor.relation, cursor.subjectKey]), scopeOf(filter));
  }

  /** @throws TuplesError (400) for anything this service did not issue for these filters. */
  decode(token: string, filter: StoredFilter): PageCursor {
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.box.openString(token, scopeOf(filter)));
    } catch (error) {
      throw TuplesError.invalidPageToken(error);
    }
    if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((part) => typeof part === 'string')) {
      throw TuplesError.invalidPageToken();
    }
    const [object, relation, subjectKey] = parsed as [string, string, string];
    return { object, relation, subjectKey };
  }
}

function scopeOf(filter: StoredFilter): string {
  return JSON.stringify([filter.namespaceId, filter.object ?? null, filter.relation ?? null, filter.subjectKey ?? null]);
}
