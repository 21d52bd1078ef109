import { Injectable } from '@nestjs/common';
import { IdentitiesService, type TraitsDescription, type IdentityRecord } from '../../identities/index.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import type { FlowMethod } from '../flows/flow-method.js';
import type { FlowOutcome } from '../flows/flow-outcome.js';
import type { SelfServiceRequest } from '../flows/self-service-request.js';
import { traitsProblemOf } from '../flows/trait-errors.js';
import { stringField } from '../forms/submission.js';
import { PasswordPolicy } from '../password-policy/password-policy.js';
import { SessionsService, type ActiveSession } from '../sessions/sessions.service.js';
import { UiMessages } from '../ui/ui-messages.js';
import { VerificationSender } from '../verification/verification-sender.js';
import { problemErrors, SettingsAnswers } from './settings-answers.js';

/** What the settings prologue found: the session that submits and its identity. */
export interface SettingsState {
  readonly active: ActiveSession;
  readonly record: IdentityRecord;
}

/**
 * The `profile` settings method: new traits. Changing login identifiers or addresses needs a privileged
 * session; a new address gets its verification link (the ones already sent or verified do not).
 */
@Injectable()
export class ProfileSettingsMethod implements FlowMethod<SettingsState> {
  readonly method = 'profile';

  constructor(
    private readonly answers: SettingsAnswers,
    private readonly sessions: SessionsService,
    private readonly identities: IdentitiesService,
    private readonly verification: VerificationSender,
  ) {}

  async submit(
    _request: SelfServiceRequest,
    flow: FlowEntity,
    body: Record<string, unknown>,
    { active, record }: SettingsState,
  ): Promise<FlowOutcome> {
    const traits = body['traits'];
    if (traits === null || typeof traits !== 'object' || Array.isArray(traits)) {
      return this.answers.showForm(flow, record, record.identity.traits, { form: [UiMessages.validationRequired('traits')] }, this.method);
    }
    const wanted = traits as Record<string, unknown>;
    const next = this.answers.describe(record.identity.schemaId, wanted);
    if ('problem' in next) return this.answers.showForm(flow, record, wanted, problemErrors(next.problem), this.method);
    if (changesProtectedTraits(this.answers.describeCurrent(record), next) && !this.sessions.isPrivileged(active.session)) {
      return this.answers.refreshRequired(flow);
    }
    const updated = await this.identities.updateTraits(record.identity.id, wanted).catch((error: unknown) => {
      const problem = traitsProblemOf(error);
      if (problem === undefined) throw error;
      return problem;
    });
    if (!('identity' in updated)) return this.answers.showForm(flow, record, wanted, problemErrors(updated), this.method);
    await this.verification.sendFor(updated);
    return this.answers.saved(flow, updated, this.method);
  }
}

/** The `password` settings method: a new password through the password policy; needs a privileged session. */
@Injectable()
export class PasswordSettingsMethod implements FlowMethod<SettingsState> {
  readonly method = 'password';

  constructor(
    private readonly answers: SettingsAnswers,
    private readonly sessions: SessionsService,
    private readonly identities: IdentitiesService,
    private readonly policy: PasswordPolicy,
  ) {}

  async submit(
    _request: SelfServiceRequest,
    flow: FlowEntity,
    body: Record<string, unknown>,
    { active, record }: SettingsState,
  ): Promise<FlowOutcome> {
    const password = stringField(body, 'password') ?? '';
    if (!this.sessions.isPrivileged(active.session)) return this.answers.refreshRequired(flow);
    const traits = record.identity.traits;
    if (password === '') {
      return this.answers.showForm(flow, record, traits, { nodes: { password: UiMessages.validationRequired('password') } }, this.method);
    }
    const violation = await this.policy.check(password, this.answers.describeCurrent(record)?.identifiers ?? []);
    if (violation !== undefined)
      return this.answers.showForm(flow, record, traits, { nodes: { password: violation.message } }, this.method);
    await this.identities.updatePassword(record.identity.id, password);
    return this.answers.saved(flow, record, this.method);
  }
}

/** Login identifiers and addresses are protected: changing them needs a privileged session (Kratos). */
function changesProtectedTraits(current: TraitsDescription | undefined, next: TraitsDescription): boolean {
  if (current === undefined) return true;
  const same = (a: readonly string[], b: readonly string[]): boolean =>
    a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
  return !same(current.identifiers, next.identifiers) || !same(current.addresses, next.addresses);
}
