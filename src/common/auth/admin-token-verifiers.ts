import { Injectable } from '@nestjs/common';

/** Something that can tell whether a bearer token grants admin access (e.g. an OAuth2 access token with the admin scope). */
export interface AdminTokenVerifier {
  isAdmin(token: string): Promise<boolean>;
}

/**
 * Where contexts that issue tokens register a verifier at startup, so the admin guard (which lives in
 * the plumbing and must not depend on the oauth context) can accept their tokens.
 */
@Injectable()
export class AdminTokenVerifiers {
  private readonly verifiers: AdminTokenVerifier[] = [];

  register(verifier: AdminTokenVerifier): void {
    this.verifiers.push(verifier);
  }

  async anyAccepts(token: string): Promise<boolean> {
    for (const verifier of this.verifiers) {
      if (await verifier.isAdmin(token)) return true;
    }
    return false;
  }
}
