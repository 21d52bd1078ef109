import { type DynamicModule, Module, type Type, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { AdminAuthModule } from './common/auth/admin-auth.module.js';
import { AuthGuard } from './common/auth/auth.guard.js';
import { RouteAuditModule } from './common/auth/route-audit.module.js';
import { ApiDescriptionModule } from './api-description/api-description.module.js';
import { ClientsModule } from './clients/clients.module.js';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter.js';
import { validationError } from './common/errors/validation-error.js';
import { ConsentModule } from './consent/consent.module.js';
import { ConfigModule } from './config/config.module.js';
import type { AppConfig } from './config/app-config.js';
import { DatabaseModule } from './database/database.module.js';
import { DirectorySyncModule } from './directory-sync/directory-sync.module.js';
import { DecisionsModule } from './decisions/decisions.module.js';
import { HealthModule } from './health/health.module.js';
import { IdentitiesModule } from './identities/identities.module.js';
import { KeysModule } from './keys/keys.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { OAuthModule } from './oauth/oauth.module.js';
import { PoliciesModule } from './policies/policies.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { RulesModule } from './rules/rules.module.js';
import { SelfServiceModule } from './self-service/self-service.module.js';
import { TuplesModule } from './tuples/tuples.module.js';
import { UiModule } from './ui/ui.module.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string, extraModules: readonly Type[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(databaseUrl, config.database),
        DiscoveryModule,
        AdminAuthModule,
        RouteAuditModule,
        ApiDescriptionModule,
        HealthModule,
        MetricsModule,
        RateLimitModule,
        TuplesModule,
        ClientsModule,
        KeysModule,
        PoliciesModule,
        RulesModule,
        IdentitiesModule,
        ConsentModule,
        OAuthModule,
        SelfServiceModule,
        UiModule,
        DirectorySyncModule,
        DecisionsModule,
        ...extraModules,
      ],
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        {
          provide: APP_PIPE,
          useValue: new ValidationPipe({
            whitelist: true,
            forbidNonWhitelisted: true,
            transform: true,
            exceptionFactory: validationError,
          }),
        },
      ],
    };
  }
}
