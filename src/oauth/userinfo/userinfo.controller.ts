import { Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BearerAuth } from '../../common/auth/auth-marker.js';
import { bearerToken } from '../../common/auth/admin-credentials.js';
import { PublicController } from '../../common/auth/controllers.js';
import { formParameters } from '../token-endpoint/form-parameters.js';
import { TokenError } from '../tokens/token.errors.js';
import { UserinfoService } from './userinfo.service.js';

/**
 * `GET|POST /userinfo` on the public listener. The access token comes in `Authorization: Bearer`, or
 * in the form body of a POST (RFC 6750 §2.2); never from the query string, and never both at once.
 */
@PublicController('userinfo')
export class UserinfoController {
  constructor(private readonly userinfo: UserinfoService) {}

  @Get()
  @BearerAuth()
  async get(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.send(reply, bearerOf(request.headers.authorization, undefined));
  }

  @Post()
  @BearerAuth()
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const contentType = request.headers['content-type'];
    const body = contentType === undefined ? undefined : formParameters(request.body, contentType)['access_token'];
    return this.send(reply, bearerOf(request.headers.authorization, body));
  }

  private async send(reply: FastifyReply, token: string): Promise<FastifyReply> {
    const response = await this.userinfo.userinfo(token);
    void reply.status(200).header('cache-control', 'no-store').header('pragma', 'no-cache');
    if (response.format === 'jwt') return reply.type('application/jwt').send(response.jwt);
    return reply.type('application/json; charset=utf-8').send(response.claims);
  }
}

function bearerOf(authorization: string | undefined, body: string | undefined): string {
  const header = bearerToken(authorization);
  if (header !== undefined && body !== undefined) {
    throw TokenError.invalidRequest('The access token must be sent in one place only (RFC 6750 §2).');
  }
  const token = header ?? body;
  if (token === undefined) throw TokenError.invalidToken('No access token was presented.');
  return token;
}
