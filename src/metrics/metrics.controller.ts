import { Controller, Get, Res } from '@nestjs/common';
import { PrometheusController } from '@willsoto/nestjs-prometheus';
import type { FastifyReply } from 'fastify';
import { PublicAccess } from '../common/auth/auth-marker.js';
import { OnListener } from '../common/http/listener.js';

/**
 * Prometheus scrapes without credentials (the admin port's `prometheus.io/scrape` annotation names no credentials), so the endpoint is
 * open but only on the admin listener, which belongs on a private network.
 */
@OnListener('admin')
@PublicAccess()
@Controller()
export class MetricsController extends PrometheusController {
  @Get()
  override async index(@Res({ passthrough: true }) response: FastifyReply): Promise<string> {
    return super.index(response);
  }
}
