import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsModule } from '../clients/index.js';
import { IdentitiesModule } from '../identities/index.js';
import { ChallengeSealer } from './challenge-sealer.js';
import { ConsentAdminController } from './consent-admin.controller.js';
import { ConsentAdminService } from './consent-admin.service.js';
import { ConsentFlowService } from './consent-flow.service.js';
import { ConsentHandOff } from './consent-hand-off.js';
import { ConsentRequestsRepository } from './consent-requests.repository.js';
import { ConsentRequestEntity } from './entities/consent-request.entity.js';
import { LoginRequestEntity } from './entities/login-request.entity.js';
import { LoginSessionEntity } from './entities/login-session.entity.js';
import { LogoutRequestEntity } from './entities/logout-request.entity.js';
import { LoginHandOff } from './login-hand-off.js';
import { LoginRequestsRepository } from './login-requests.repository.js';
import { LoginSessionsRepository } from './login-sessions.repository.js';
import { LogoutHandOff } from './logout-hand-off.js';
import { LogoutRequestsRepository } from './logout-requests.repository.js';
import { SubjectAccessObserver } from './subject-access-observer.js';

/** Login, consent and logout requests handed to external apps; remembered login sessions and consents. */
@Module({
  imports: [
    ClientsModule,
    IdentitiesModule,
    TypeOrmModule.forFeature([LoginSessionEntity, LoginRequestEntity, ConsentRequestEntity, LogoutRequestEntity]),
  ],
  controllers: [ConsentAdminController],
  providers: [
    ConsentFlowService,
    ConsentAdminService,
    LoginHandOff,
    ConsentHandOff,
    LogoutHandOff,
    ChallengeSealer,
    LoginSessionsRepository,
    LoginRequestsRepository,
    ConsentRequestsRepository,
    LogoutRequestsRepository,
    SubjectAccessObserver,
  ],
  // ConsentAdminService: the built-in login, consent and logout pages (ui) answer requests as an app would.
  exports: [ConsentFlowService, ConsentAdminService],
})
export class ConsentModule {}
