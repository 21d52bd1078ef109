import { Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { BrowserErrorFilter } from '../errors/browser-error.filter.js';
import { LoginFlows } from './login-flows.service.js';

/** The login flow's public endpoints (seed 001); the answers are written by LoginFlows/FlowReplies. */
@PublicController('self-service/login')
@UseFilters(BrowserErrorFilter)
export class LoginController {
  constructor(private readonly login: LoginFlows) {}

  @Get('api')
  initApi(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.login.initApi({ request, reply });
  }

  @Get('browser')
  initBrowser(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.login.initBrowser({ request, reply });
  }

  @Get('flows')
  fetch(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.login.fetch({ request, reply });
  }

  @Post()
  submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.login.submit({ request, reply });
  }
}
