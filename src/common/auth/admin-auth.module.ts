import { Module } from '@nestjs/common';
import { AdminCredentials } from './admin-credentials.js';
import { AdminTokenVerifiers } from './admin-token-verifiers.js';

/**
 * The admin credential check, once per application: for AuthGuard and for the contexts whose plain
 * routes take an admin credential. Contexts that issue admin tokens register their verifier in
 * AdminTokenVerifiers.
 */
@Module({
  providers: [AdminTokenVerifiers, AdminCredentials],
  exports: [AdminTokenVerifiers, AdminCredentials],
})
export class AdminAuthModule {}
