import { Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { BrowserErrorFilter } from '../errors/browser-error.filter.js';
import { FlowResponder } from '../flows/flow-responder.js';
import { selfServiceRequestOf } from '../flows/self-service-edge.js';
import { SettingsFlows } from './settings-flows.service.js';

/** The settings flow's public endpoints (a session is checked by SettingsFlows, per Kratos' rules). */
@PublicController('self-service/settings')
@UseFilters(BrowserErrorFilter)
export class SettingsController {
  constructor(
    private readonly settings: SettingsFlows,
    private readonly responder: FlowResponder,
  ) {}

  @Get('api')
  initApi(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.settings.initApi(input));
  }

  @Get('browser')
  initBrowser(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.settings.initBrowser(input));
  }

  @Get('flows')
  fetch(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.settings.fetch(input));
  }

  @Post()
  submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.settings.submit(input));
  }
}
