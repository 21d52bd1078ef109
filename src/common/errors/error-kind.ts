/** What went wrong, independent of wire shape. Every domain error code maps to exactly one kind. */
export enum ErrorKind {
  BadRequest = 'bad_request',
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
  NotFound = 'not_found',
  MethodNotAllowed = 'method_not_allowed',
  Conflict = 'conflict',
  Gone = 'gone',
  PayloadTooLarge = 'payload_too_large',
  UriTooLong = 'uri_too_long',
  UnsupportedMediaType = 'unsupported_media_type',
  TooManyRequests = 'too_many_requests',
  Internal = 'internal',
  /** An upstream the service forwards to (the reverse proxy's) failed or did not answer. */
  BadGateway = 'bad_gateway',
  Unavailable = 'unavailable',
}

export function statusOf(kind: ErrorKind): number {
  switch (kind) {
    case ErrorKind.BadRequest:
      return 400;
    case ErrorKind.Unauthorized:
      return 401;
    case ErrorKind.Forbidden:
      return 403;
    case ErrorKind.NotFound:
      return 404;
    case ErrorKind.MethodNotAllowed:
      return 405;
    case ErrorKind.Conflict:
      return 409;
    case ErrorKind.Gone:
      return 410;
    case ErrorKind.PayloadTooLarge:
      return 413;
    case ErrorKind.UriTooLong:
      return 414;
    case ErrorKind.UnsupportedMediaType:
      return 415;
    case ErrorKind.TooManyRequests:
      return 429;
    case ErrorKind.Internal:
      return 500;
    case ErrorKind.BadGateway:
      return 502;
    case ErrorKind.Unavailable:
      return 503;
  }
}
