/** Why an outbound fetch did not produce a response. */
export enum OutboundFailure {
  /** Not an absolute http(s) URL. */
  InvalidUrl = 'invalid_url',
  /** The host is, or resolves to, a private, loopback, link-local or otherwise reserved address. */
  ForbiddenAddress = 'forbidden_address',
  /** The host name does not resolve. */
  Unresolvable = 'unresolvable',
  /** The whole exchange (resolution, connection, body) took longer than `outbound.timeoutMs`. */
  Timeout = 'timeout',
  /** The body is larger than `outbound.maxBytes`. */
  TooLarge = 'too_large',
  /** Connection refused or reset, TLS failure, and the like. */
  Network = 'network',
}

/** Raised by OutboundHttp. Callers turn it into their own domain error; the message names no secrets. */
export class OutboundError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OutboundError';
  }
}
