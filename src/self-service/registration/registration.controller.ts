import { Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { BrowserErrorFilter } from '../errors/browser-error.filter.js';
import { FlowResponder } from '../flows/flow-responder.js';
import { selfServiceRequestOf } from '../flows/self-service-edge.js';
import { RegistrationFlows } from './registration-flows.service.js';

/** The registration flow's public endpoints; the answers are written by RegistrationFlows/FlowResponder. */
@PublicController('self-service/registration')
@UseFilters(BrowserErrorFilter)
export class RegistrationController {
  constructor(
    private readonly registration: RegistrationFlows,
    private readonly responder: FlowResponder,
  ) {}

  @Get('api')
  initApi(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.registration.initApi(input));
  }

  @Get('browser')
  initBrowser(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.registration.initBrowser(input));
  }

  @Get('flows')
  fetch(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.registration.fetch(input));
  }

  @Post()
  submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.registration.submit(input));
  }
}
