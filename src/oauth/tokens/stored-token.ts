import type { TokenSession } from './token-session.js';

/** What every stored code and token of a grant family carries. */
export interface StoredGrant {
  /** The grant family (one authorization, or one client_credentials request). */
  readonly requestId: string;
  readonly clientId: string;
  /** The consent that granted it; null for client_credentials. */
  readonly consentId: string | null;
  readonly subject: string;
  readonly scope: readonly string[];
  readonly audience: readonly string[];
  readonly session: TokenSession;
  readonly issuedAt: Date;
  readonly expiresAt: Date;
}

export interface StoredAccessToken extends StoredGrant {
  readonly signature: string;
}

export interface StoredRefreshToken extends StoredGrant {
  readonly signature: string;
  readonly active: boolean;
}

export interface StoredCode extends StoredGrant {
  readonly signature: string;
  readonly active: boolean;
  readonly redirectUri: string;
  readonly codeChallenge: string | null;
}
