import { Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { BrowserErrorFilter } from '../errors/browser-error.filter.js';
import { FlowResponder } from '../flows/flow-responder.js';
import { selfServiceRequestOf } from '../flows/self-service-edge.js';
import { LoginFlows } from './login-flows.service.js';

/** The login flow's public endpoints: LoginFlows decides, FlowResponder answers. */
@PublicController('self-service/login')
@UseFilters(BrowserErrorFilter)
export class LoginController {
  constructor(
    private readonly login: LoginFlows,
    private readonly responder: FlowResponder,
  ) {}

  @Get('api')
  initApi(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.login.initApi(input));
  }

  @Get('browser')
  initBrowser(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.login.initBrowser(input));
  }

  @Get('flows')
  fetch(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.login.fetch(input));
  }

  @Post()
  submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.login.submit(input));
  }
}
