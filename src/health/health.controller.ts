import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminAuth, PublicAccess } from '../common/auth/auth-marker.js';
import { listenerOf, OnListener } from '../common/http/listener.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { ReadinessService } from './readiness.service.js';

const OK = { status: 'ok' } as const;

/** Readiness; liveness is a plain Fastify route (liveness.route.ts). */

@OnListener('public', 'admin')
@PublicAccess()
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get('ready')
  async ready(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<object> {
    // Anyone can reach the public listener: it learns ok or not; the operator reads why on the admin one.
    const result = listenerOf(request.raw) === 'admin' ? await this.readiness.check() : await this.readiness.checkForPublic();
    if (result.ready) return result.details === undefined ? OK : { ...OK, details: result.details };
    void reply.status(503);
    return { errors: result.errors };
  }
}

@OnListener('admin')
@AdminAuth()
@Controller('version')
export class VersionController {
  constructor(@InjectConfig('version') private readonly serviceVersion: string) {}

  @Get()
  version(): { version: string } {
    return { version: this.serviceVersion };
  }
}
