import { Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { BrowserErrorFilter } from '../errors/browser-error.filter.js';
import { FlowResponder } from '../flows/flow-responder.js';
import { selfServiceRequestOf } from '../flows/self-service-edge.js';
import { RecoveryFlows } from './recovery-flows.service.js';

/** The recovery flow's public endpoints; answers are written by RecoveryFlows/FlowResponder. */
@PublicController('self-service/recovery')
@UseFilters(BrowserErrorFilter)
export class RecoveryController {
  constructor(
    private readonly recovery: RecoveryFlows,
    private readonly responder: FlowResponder,
  ) {}

  @Get('api')
  initApi(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.recovery.initApi(input));
  }

  @Get('browser')
  initBrowser(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.recovery.initBrowser(input));
  }

  @Get('flows')
  fetch(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.recovery.fetch(input));
  }

  @Post()
  submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.recovery.submit(input));
  }

  /** The link in the e-mail and in admin recovery links: `?flow=&token=`. */
  @Get()
  useLink(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.recovery.useLink(input));
  }
}
