import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RouteCatalog } from '../http/route-catalog.js';
import { RouteAuditService } from './route-audit.service.js';

/**
 * The route audit and the route catalog it checks, once per application, for the boot check and for
 * the API description.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [RouteAuditService, RouteCatalog],
  exports: [RouteAuditService, RouteCatalog],
})
export class RouteAuditModule {}
