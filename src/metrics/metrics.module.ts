import { Module } from '@nestjs/common';
import { PrometheusModule } from '@willsoto/nestjs-prometheus';
import { register } from 'prom-client';
import { MetricsController } from './metrics.controller.js';

@Module({
  imports: [
    PrometheusModule.register({
      path: '/metrics/prometheus',
      controller: MetricsController,
      // Default process metrics are registered once per process, however many apps a test boots.
      defaultMetrics: { enabled: register.getSingleMetric('process_cpu_user_seconds_total') === undefined },
    }),
  ],
})
export class MetricsModule {}
