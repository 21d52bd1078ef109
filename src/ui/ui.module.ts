import { Module } from '@nestjs/common';
import { ConsentModule } from '../consent/index.js';
import { IdentitiesModule } from '../identities/index.js';
import { SelfServiceModule } from '../self-service/index.js';
import { FlowPages } from './flow-pages.service.js';
import { OAuth2PagesController } from './oauth2-pages.controller.js';
import { OAuth2Pages } from './oauth2-pages.service.js';
import { UiErrorFilter } from './ui-error.filter.js';
import { UiPagesController } from './ui-pages.controller.js';
import { UiRenderer } from './ui-renderer.js';

/**
 * The built-in sign-in pages on the public listener, server-rendered: the self-service flows and the
 * OAuth2 login, consent and logout hand-off. Each page is off when its URL setting names another app.
 */
@Module({
  imports: [ConsentModule, SelfServiceModule, IdentitiesModule],
  controllers: [UiPagesController, OAuth2PagesController],
  providers: [UiRenderer, FlowPages, OAuth2Pages, UiErrorFilter],
})
export class UiModule {}
