import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboundHttp } from '../common/http/outbound-http.js';
import { ClientSecretHasher } from './client-secret-hasher.js';
import { ClientValidator } from './client-validator.js';
import { ClientsAdminController } from './clients-admin.controller.js';
import { ClientsRepository } from './clients.repository.js';
import { ClientsService } from './clients.service.js';
import { ClientEntity } from './entities/client.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([ClientEntity])],
  controllers: [ClientsAdminController],
  providers: [ClientsService, ClientsRepository, ClientValidator, ClientSecretHasher, OutboundHttp],
  exports: [ClientsService],
})
export class ClientsModule {}
