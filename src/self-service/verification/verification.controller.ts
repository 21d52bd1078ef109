import { Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { BrowserErrorFilter } from '../errors/browser-error.filter.js';
import { FlowResponder } from '../flows/flow-responder.js';
import { selfServiceRequestOf } from '../flows/self-service-edge.js';
import { VerificationFlows } from './verification-flows.service.js';

/** The verification flow's public endpoints; answers are written by VerificationFlows/FlowResponder. */
@PublicController('self-service/verification')
@UseFilters(BrowserErrorFilter)
export class VerificationController {
  constructor(
    private readonly verification: VerificationFlows,
    private readonly responder: FlowResponder,
  ) {}

  @Get('api')
  initApi(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.verification.initApi(input));
  }

  @Get('browser')
  initBrowser(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.verification.initBrowser(input));
  }

  @Get('flows')
  fetch(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.verification.fetch(input));
  }

  @Post()
  submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.verification.submit(input));
  }

  /** The link in the e-mail: `?flow=&token=`. */
  @Get()
  useLink(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.verification.useLink(input));
  }
}
