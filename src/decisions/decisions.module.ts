import { Module } from '@nestjs/common';
import { OutboundHttp } from '../common/http/outbound-http.js';
import { KeysModule } from '../keys/index.js';
import { OAuthModule } from '../oauth/index.js';
import { PoliciesModule } from '../policies/index.js';
import { RulesModule } from '../rules/index.js';
import { SelfServiceModule } from '../self-service/index.js';
import { TuplesModule } from '../tuples/index.js';
import { DecisionPortsAdapter } from './decision-ports.adapter.js';
import { DecisionRoute } from './decision.route.js';
import { DecisionsJwksRoute } from './decisions-jwks.route.js';
import { DecisionsService } from './decisions.service.js';
import { ProxyRoute } from './proxy.route.js';

/** The decision pipeline, the decision API (admin listener), the reverse proxy and its JWKS. */
@Module({
  imports: [RulesModule, OAuthModule, SelfServiceModule, TuplesModule, PoliciesModule, KeysModule],
  providers: [DecisionsService, DecisionPortsAdapter, OutboundHttp, DecisionRoute, ProxyRoute, DecisionsJwksRoute],
  exports: [DecisionsService],
})
export class DecisionsModule {}
