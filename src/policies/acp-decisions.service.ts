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

  async isAllowed(flavor: Flavor, request: AllowedRequest): Promise<boolean> {
    const index = await this.indexes.index(flavor);
    return index.isAllowed(request);
  }

  /** The `POST .../allowed` body, checked (400 on malformed input), then decided. */
  async allowed(flavor: Flavor, body: unknown): Promise<boolean> {
    return this.isAllowed(flavor, parseAllowedInput(body));
  }
}
