/** Why a sealed value could not be opened. None of them says anything about the plaintext. */
export type SecretBoxFailure =
  /** Not something `SecretBox.seal` produced, or a format version this build does not know. */
  | 'malformed'
  /** Sealed under a secret that is no longer in the list (rotated out). */
  | 'unknown_secret'
  /** The tag does not verify: the ciphertext, its header or its associated data changed. */
  | 'authentication_failed';

/** Raised by `SecretBox.open`. The message never contains key material or plaintext. */
export class SecretBoxError extends Error {
  constructor(
    readonly failure: SecretBoxFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SecretBoxError';
  }
}
