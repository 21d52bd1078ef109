import { Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { BrowserErrorFilter } from '../errors/browser-error.filter.js';
import { VerificationFlows } from './verification-flows.service.js';

/** The verification flow's public endpoints; answers are written by VerificationFlows/FlowReplies. */
@PublicController('self-service/verification')
@UseFilters(BrowserErrorFilter)
export class VerificationController {
  constructor(private readonly verification: VerificationFlows) {}

  @Get('api')
  initApi(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.verification.initApi({ request, reply });
  }

  @Get('browser')
  initBrowser(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.verification.initBrowser({ request, reply });
  }

  @Get('flows')
  fetch(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.verification.fetch({ request, reply });
  }

  @Post()
  submit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.verification.submit({ request, reply });
  }

  /** The link in the e-mail: `?flow=&token=`. */
  @Get()
  useLink(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.verification.useLink({ request, reply });
  }
}
