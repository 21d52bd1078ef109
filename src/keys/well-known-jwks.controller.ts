import { Get, Header, Headers, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PublicController } from '../common/auth/controllers.js';
import { KeysService } from './keys.service.js';

/**
 * `GET /.well-known/jwks.json` on the public listener. The document is serialised once per key change
 * (KeysService.publicJwks), so a request costs a cache lookup. `no-cache` + ETag rather than a max-age:
 * a newly added key signs at once, so verifiers must be able to see it at once (docs/keys.md).
 */
@PublicController('.well-known')
export class WellKnownJwksController {
  constructor(private readonly keys: KeysService) {}

  @Get('jwks.json')
  @Header('content-type', 'application/json; charset=utf-8')
  @Header('cache-control', 'public, no-cache')
  async jwks(@Headers('if-none-match') ifNoneMatch: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const jwks = await this.keys.publicJwks();
    void reply.header('etag', jwks.etag);
    if (ifNoneMatch !== undefined && matches(ifNoneMatch, jwks.etag)) {
      void reply.status(304);
      return '';
    }
    return jwks.body;
  }
}

/** RFC 9110 §13.1.2: a list of entity tags (weak comparison), or `*`. */
function matches(header: string, etag: string): boolean {
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}
