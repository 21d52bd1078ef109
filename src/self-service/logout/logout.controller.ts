import { Body, Delete, Get, Header, HttpCode, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { BrowserErrorFilter } from '../errors/browser-error.filter.js';
import { FlowResponder } from '../flows/flow-responder.js';
import { selfServiceRequestOf } from '../flows/self-service-edge.js';
import { RevokeSessionDto } from './dto/revoke-session.dto.js';
import { LogoutService, type LogoutUrlResponse } from './logout.service.js';

/**
 * Logout: `DELETE /self-service/logout/api` (API clients), `DELETE /sessions` (Kratos v0.6's name for
 * the same), `GET /self-service/browser/flows/logout` (browsers, the documented route), and the later
 * Kratos form for browsers: `GET /self-service/logout/browser` for the logout URL, `GET
 * /self-service/logout?token=` to end the session.
 */
@PublicController()
@UseFilters(BrowserErrorFilter)
export class LogoutController {
  constructor(
    private readonly logout: LogoutService,
    private readonly responder: FlowResponder,
  ) {}

  @Delete('self-service/logout/api')
  @HttpCode(204)
  apiLogout(@Body() body: RevokeSessionDto): Promise<void> {
    return this.logout.revokeToken(body.session_token);
  }

  @Delete('sessions')
  @HttpCode(204)
  revokeSession(@Body() body: RevokeSessionDto): Promise<void> {
    return this.logout.revokeToken(body.session_token);
  }

  @Get('self-service/logout/browser')
  @Header('cache-control', 'no-store')
  logoutUrl(@Req() request: FastifyRequest): Promise<LogoutUrlResponse> {
    return this.logout.logoutUrl(selfServiceRequestOf(request));
  }

  @Get('self-service/logout')
  tokenLogout(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.logout.tokenLogout(input));
  }

  @Get('self-service/browser/flows/logout')
  browserLogout(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.logout.browserLogout(input));
  }
}
