import { Module } from '@nestjs/common';
import { OutboundHttp } from '../../common/http/outbound-http.js';
import { BreachedPasswords } from './breached-passwords.js';
import { PasswordPolicy } from './password-policy.js';

/** The password policy, for the flows that set a password (registration, settings). */
@Module({
  providers: [PasswordPolicy, BreachedPasswords, OutboundHttp],
  exports: [PasswordPolicy],
})
export class PasswordPolicyModule {}
