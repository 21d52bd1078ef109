import { AppError, type AppErrorOptions } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';

export enum ClientsErrorCode {
  /** A metadata field breaks a registration rule (RFC 7591 §3.2.2). */
  InvalidClientMetadata = 'invalid_client_metadata',
  /** A redirect_uris entry is not acceptable (RFC 7591 §3.2.2). */
  InvalidRedirectUri = 'invalid_redirect_uri',
  NotFound = 'not_found',
  /** A client with that client_id exists already. */
  Conflict = 'conflict',
  /** Unknown client or wrong secret; deliberately the same error for both (RFC 6749 §5.2). */
  InvalidClient = 'invalid_client',
}

/** The only error the clients context throws. `field` names the offending metadata field. */
export class ClientsError extends AppError {
  constructor(
    readonly reason: ClientsErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    const [kind, wire] = wireOf(reason);
    super(kind, wire, message, options);
    this.name = 'ClientsError';
  }

  static metadata(field: string, problem: string): ClientsError {
    return new ClientsError(ClientsErrorCode.InvalidClientMetadata, `${field}: ${problem}`, { details: { field } });
  }

  static redirectUri(field: string, problem: string): ClientsError {
    return new ClientsError(ClientsErrorCode.InvalidRedirectUri, `${field}: ${problem}`, { details: { field } });
  }

  static notFound(): ClientsError {
    return new ClientsError(ClientsErrorCode.NotFound, 'The requested OAuth 2.0 client does not exist.');
  }

  static conflict(cause: unknown): ClientsError {
    return new ClientsError(ClientsErrorCode.Conflict, 'An OAuth 2.0 client with this client_id exists already.', {
      details: { field: 'client_id' },
      cause,
    });
  }

  static invalidClient(): ClientsError {
    return new ClientsError(ClientsErrorCode.InvalidClient, 'Client authentication failed (unknown client or wrong credentials).');
  }
}

function wireOf(reason: ClientsErrorCode): readonly [ErrorKind, string] {
  switch (reason) {
    case ClientsErrorCode.InvalidClientMetadata:
      return [ErrorKind.BadRequest, 'invalid_client_metadata'];
    case ClientsErrorCode.InvalidRedirectUri:
      return [ErrorKind.BadRequest, 'invalid_redirect_uri'];
    case ClientsErrorCode.NotFound:
      return [ErrorKind.NotFound, 'not_found'];
    case ClientsErrorCode.Conflict:
      return [ErrorKind.Conflict, 'conflict'];
    case ClientsErrorCode.InvalidClient:
      return [ErrorKind.Unauthorized, 'invalid_client'];
  }
}
