import { HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminOrClientAuth } from '../../common/auth/auth-marker.js';
import { bearerToken } from '../../common/auth/admin-credentials.js';
import { AdminController } from '../../common/auth/controllers.js';
import type { AdminConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { ClientAuthenticator } from '../client-auth/client-authenticator.js';
import { formParameters, required, spaceList } from '../token-endpoint/form-parameters.js';
import { IntrospectionService, type IntrospectionCaller, type IntrospectionResponse } from './introspection.service.js';

/**
 * `POST /oauth2/introspect` (RFC 7662) on the admin listener. The admin credential (a bearer token,
 * checked by the guard) sees every token; without one, the caller authenticates as an OAuth2 client by
 * the method it registered, as at the token endpoint (RFC 7662 §2.1), and the service decides what a
 * resource server may see.
 */
@AdminController('oauth2')
export class IntrospectionAdminController {
  constructor(
    private readonly introspection: IntrospectionService,
    private readonly authenticator: ClientAuthenticator,
    @InjectConfig('admin') private readonly admin: AdminConfig,
  ) {}

  @Post('introspect')
  @HttpCode(200)
  @AdminOrClientAuth()
  async introspect(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<IntrospectionResponse> {
    void reply.header('cache-control', 'no-store');
    const parameters = formParameters(request.body, request.headers['content-type']);
    const token = required(parameters, 'token');
    const caller: IntrospectionCaller =
      this.admin.auth === 'off' || bearerToken(request.headers.authorization) !== undefined
        ? { kind: 'admin' }
        : { kind: 'client', client: await this.authenticator.authenticate(request.headers.authorization, parameters) };
    return this.introspection.introspect(token, spaceList(parameters['scope']), caller);
  }
}
