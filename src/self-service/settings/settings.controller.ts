import { Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { BrowserErrorFilter } from '../errors/browser-error.filter.js';
import { SettingsFlows } from './settings-flows.service.js';

/** The settings flow's public endpoints (a session is checked by SettingsFlows, per Kratos' rules). */
@PublicController('self-service/settings')
@UseFilters(BrowserErrorFilter)
export class SettingsController {
  constructor(private readonly settings: SettingsFlows) {}

  @Get('api')
  initApi(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.settings.initApi({ request, reply });
  }

  @Get('browser')
  initBrowser(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.settings.initBrowser({ request, reply });
  }

  @Get('flows')
  fetch(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.settings.fetch({ request, reply });
  }

  @Post()
  submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.settings.submit({ request, reply });
  }
}
