import { HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminController } from '../../common/auth/controllers.js';
import { formParameters, required, spaceList } from '../token-endpoint/form-parameters.js';
import { IntrospectionService, type IntrospectionResponse } from './introspection.service.js';

/** `POST /oauth2/introspect` (RFC 7662) on the admin listener, behind the admin credential like every admin route. */
@AdminController('oauth2')
export class IntrospectionAdminController {
  constructor(private readonly introspection: IntrospectionService) {}

  @Post('introspect')
  @HttpCode(200)
  async introspect(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<IntrospectionResponse> {
    void reply.header('cache-control', 'no-store');
    const parameters = formParameters(request.body, request.headers['content-type']);
    return this.introspection.introspect(required(parameters, 'token'), spaceList(parameters['scope']));
  }
}
