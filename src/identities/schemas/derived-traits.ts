/** A login identifier for the password method: lower-cased, NFC, with the trait it came from. */
export interface DerivedIdentifier {
  readonly identifier: string;
  /** Dotted trait path, e.g. `email` or `emails.0`. */
  readonly traitPath: string;
}

export interface DerivedAddress {
  readonly via: 'email';
  readonly value: string;
}

/** What the `ory.sh/kratos` extension of a schema derives from one set of valid traits. */
export interface DerivedTraits {
  readonly identifiers: readonly DerivedIdentifier[];
  readonly verifiableAddresses: readonly DerivedAddress[];
  readonly recoveryAddresses: readonly DerivedAddress[];
}
