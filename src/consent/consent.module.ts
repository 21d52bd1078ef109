import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module.js';

/** Login, consent and logout requests handed to external apps; remembered login sessions and consents. */
@Module({
  imports: [ClientsModule],
  controllers: [],
  providers: [],
  exports: [],
})
export class ConsentModule {}
