import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AdminAuth, PublicAccess } from '../common/auth/auth-marker.js';
import { OnListener } from '../common/http/listener.js';
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
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<object> {
    const result = await this.readiness.check();
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
