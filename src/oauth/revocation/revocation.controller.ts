import { HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { ClientAuthenticator } from '../client-auth/client-authenticator.js';
import { formParameters, required } from '../token-endpoint/form-parameters.js';
import { RevocationService } from './revocation.service.js';

/** `POST /oauth2/revoke` (RFC 7009) on the public listener: client authenticated as at the token endpoint. */
@PublicController('oauth2')
export class RevocationController {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly revocation: RevocationService,
  ) {}

  @Post('revoke')
  @HttpCode(200)
  async revoke(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    const parameters = formParameters(request.body, request.headers['content-type']);
    const token = required(parameters, 'token');
    const client = await this.authenticator.authenticate(request.headers.authorization, parameters);
    await this.revocation.revoke(client, token);
  }
}
