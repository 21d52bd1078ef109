import { Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { AuthorizeResponder } from './authorize.responder.js';
import { AuthorizeService } from './authorize.service.js';
import { authorizeInputOf } from './authorize-input.js';

/** The OAuth 2.0 authorization endpoint, `GET` and `POST /oauth2/auth` (OIDC Core §3.1.2.1), on the public listener. */
@PublicController('oauth2/auth')
export class AuthorizeController {
  constructor(
    private readonly authorize: AuthorizeService,
    private readonly responder: AuthorizeResponder,
  ) {}

  @Get()
  async get(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.responder.send(request, reply, await this.authorize.authorize(authorizeInputOf(request)));
  }

  @Post()
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.responder.send(request, reply, await this.authorize.authorize(authorizeInputOf(request)));
  }
}
