import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RouteAuditService } from './route-audit.service.js';

/** The route audit, once per application, for the boot check and for the API description. */
@Module({
  imports: [DiscoveryModule],
  providers: [RouteAuditService],
  exports: [RouteAuditService],
})
export class RouteAuditModule {}
