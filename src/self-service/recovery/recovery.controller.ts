import { Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { BrowserErrorFilter } from '../errors/browser-error.filter.js';
import { RecoveryFlows } from './recovery-flows.service.js';

/** The recovery flow's public endpoints (seed 001); answers are written by RecoveryFlows/FlowReplies. */
@PublicController('self-service/recovery')
@UseFilters(BrowserErrorFilter)
export class RecoveryController {
  constructor(private readonly recovery: RecoveryFlows) {}

  @Get('api')
  initApi(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.recovery.initApi({ request, reply });
  }

  @Get('browser')
  initBrowser(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.recovery.initBrowser({ request, reply });
  }

  @Get('flows')
  fetch(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.recovery.fetch({ request, reply });
  }

  @Post()
  submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.recovery.submit({ request, reply });
  }

  /** The link in the e-mail and in admin recovery links: `?flow=&token=`. */
  @Get()
  useLink(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.recovery.useLink({ request, reply });
  }
}
