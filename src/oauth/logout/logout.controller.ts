import { Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { logoutInputOf } from './logout-input.js';
import { LogoutResponder } from './logout.responder.js';
import { LogoutService } from './logout.service.js';

/**
 * The end-session endpoint (`end_session_endpoint`), `/oauth2/sessions/logout` on the public listener:
 * GET with query parameters, POST with a form (OIDC RP-Initiated Logout 1.0 §2 asks for both).
 */
@PublicController('oauth2/sessions')
export class LogoutController {
  constructor(
    private readonly logout: LogoutService,
    private readonly responder: LogoutResponder,
  ) {}

  @Get('logout')
  async get(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.responder.send(reply, await this.logout.logout(logoutInputOf(request, 'query')));
  }

  @Post('logout')
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.responder.send(reply, await this.logout.logout(logoutInputOf(request, 'form')));
  }
}
