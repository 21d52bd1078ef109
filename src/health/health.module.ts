import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController, VersionController } from './health.controller.js';
import { LivenessRoute } from './liveness.route.js';
import { ReadinessReports } from './readiness-reports.js';
import { ReadinessService } from './readiness.service.js';
import { ShutdownState } from './shutdown-state.js';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, VersionController],
  providers: [ReadinessService, ReadinessReports, ShutdownState, LivenessRoute],
  exports: [ShutdownState, ReadinessReports],
})
export class HealthModule {}
