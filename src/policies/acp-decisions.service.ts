import { Injectable } from '@nestjs/common';
import { AcpPolicyIndexes } from './acp-policy-indexes.js';
import { parseAllowedInput } from './allowed-input.parser.js';
import type { AllowedRequest, Flavor } from './engine/policy-definition.js';

/**
 * Allowed decisions: the context's API for everyone else (the decision pipeline's ACP authorizer
 * calls `isAllowed`). Deny overrides allow; no applicable policy denies.
 */
@Injectable()
export class AcpDecisionsService {
  constructor(private readonly indexes: AcpPolicyIndexes) {}

  /** At once, with no promise made, while the flavor's index is up to date (nearly always). */
  isAllowed(flavor: Flavor, request: AllowedRequest): boolean | Promise<boolean> {
    const index = this.indexes.index(flavor);
    return index instanceof Promise ? index.then((ready) => ready.isAllowed(request)) : index.isAllowed(request);
  }

  /** The `POST .../allowed` body, checked (throws the 400 for malformed input), then decided. */
  allowed(flavor: Flavor, body: unknown): boolean | Promise<boolean> {
    return this.isAllowed(flavor, parseAllowedInput(body));
  }
}
