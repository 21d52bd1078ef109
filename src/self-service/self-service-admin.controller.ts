import { Get, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminController } from '../common/auth/controllers.js';
import { FlowResponder } from './flows/flow-responder.js';
import { selfServiceRequestOf } from './flows/self-service-edge.js';
import { ErrorContainersService, type ErrorContainerResponse } from './errors/error-containers.service.js';
import { LoginFlows } from './login/login-flows.service.js';
import { RecoveryFlows } from './recovery/recovery-flows.service.js';
import { RegistrationFlows } from './registration/registration-flows.service.js';
import { SettingsFlows } from './settings/settings-flows.service.js';
import { VerificationFlows } from './verification/verification-flows.service.js';

/**
 * The flow and error reads Kratos v0.6 also serves on its admin port, where its SDK calls them
 * (`getSelfServiceLoginFlow`, ..., `getSelfServiceError`): the same answers as on the public listener,
 * behind the admin credential instead of the browser's cookies (a settings flow needs no session here).
 */
@AdminController('self-service')
export class SelfServiceAdminController {
  constructor(
    private readonly login: LoginFlows,
    private readonly registration: RegistrationFlows,
    private readonly recovery: RecoveryFlows,
    private readonly settings: SettingsFlows,
    private readonly verification: VerificationFlows,
    private readonly containers: ErrorContainersService,
    private readonly responder: FlowResponder,
  ) {}

  @Get('login/flows')
  loginFlow(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.login.fetch(input));
  }

  @Get('registration/flows')
  registrationFlow(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.registration.fetch(input));
  }

  @Get('recovery/flows')
  recoveryFlow(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.recovery.fetch(input));
  }

  @Get('settings/flows')
  settingsFlow(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.settings.fetchForAdmin(input));
  }

  @Get('verification/flows')
  verificationFlow(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const input = selfServiceRequestOf(request);
    return this.responder.answer(request, reply, input, this.verification.fetch(input));
  }

  @Get('errors')
  error(@Query('error') id: unknown): Promise<ErrorContainerResponse> {
    return this.containers.get(id);
  }
}
