import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController, VersionController } from './health.controller.js';
import { ReadinessService } from './readiness.service.js';
import { ShutdownState } from './shutdown-state.js';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, VersionController],
  providers: [ReadinessService, ShutdownState],
  exports: [ShutdownState],
})
export class HealthModule {}
