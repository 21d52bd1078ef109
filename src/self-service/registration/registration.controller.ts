import { Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { BrowserErrorFilter } from '../errors/browser-error.filter.js';
import { RegistrationFlows } from './registration-flows.service.js';

/** The registration flow's public endpoints; the answers are written by RegistrationFlows/FlowReplies. */
@PublicController('self-service/registration')
@UseFilters(BrowserErrorFilter)
export class RegistrationController {
  constructor(private readonly registration: RegistrationFlows) {}

  @Get('api')
  initApi(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.registration.initApi({ request, reply });
  }

  @Get('browser')
  initBrowser(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.registration.initBrowser({ request, reply });
  }

  @Get('flows')
  fetch(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.registration.fetch({ request, reply });
  }

  @Post()
  submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.registration.submit({ request, reply });
  }
}
