import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController, VersionController } from './health.controller.js';
import { LivenessRoute } from './liveness.route.js';
import { ReadinessService } from './readiness.service.js';
import { ShutdownState } from './shutdown-state.js';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, VersionController],
  providers: [ReadinessService, ShutdownState, LivenessRoute],
  exports: [ShutdownState],
})
export class HealthModule {}
