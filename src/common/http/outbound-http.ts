import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Injectable } from '@nestjs/common';
import type { OutboundConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { ConfigError } from '../../config/config.error.js';
import { isForbiddenAddress } from './outbound-address.js';
import { OutboundError, OutboundFailure } from './outbound-http.error.js';

export interface OutboundResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface OutboundRequest {
  /** The `Accept` header; JSON by default. */
  readonly accept?: string;
  /** Further request headers (e.g. credentials a decision handler forwards); they cannot replace the ones set here. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What goes on the wire: the method, and for a POST its body and type. */
interface OutboundMessage {
  readonly method: string;
  readonly accept: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: { readonly contentType: string; readonly bytes: Buffer };
}

const USER_AGENT = 'Latchkey';

/**
 * The one HTTP client for every request the service makes to a URL named in client metadata
 * (sector_identifier_uri, jwks_uri, request_uri fetched; back-channel logout posted). It resolves the
 * host itself, refuses private and reserved addresses unless `outbound.allowPrivateNetworks` is set,
 * and then connects to the very address it checked, so a DNS answer that changes between check and
 * connect (rebinding) cannot slip through. One deadline covers resolution, connection and body; the
 * body is streamed and cut off past `outbound.maxBytes`. Redirects are not followed: a 3xx is returned
 * as it is, and callers treat anything but the status they expect as a failure.
 */
@Injectable()
export class OutboundHttp {
  private readonly ca: string[] | undefined;

  constructor(@InjectConfig('outbound') private readonly config: OutboundConfig) {
    this.ca = config.caFile === undefined ? undefined : [...rootCertificates, readCaFile(config.caFile)];
  }

  get(rawUrl: string, request: OutboundRequest = {}): Promise<OutboundResponse> {
    return this.send(rawUrl, { method: 'GET', accept: request.accept ?? 'application/json', headers: request.headers });
  }

  /**
   * Sends a request without a body under another request's method (a decision handler asking a
   * session checker about the request it judges), with the same checks, deadline and size cap as `get`.
   */
  forward(rawUrl: string, method: string, request: OutboundRequest = {}): Promise<OutboundResponse> {
    return this.send(rawUrl, { method, accept: request.accept ?? 'application/json', headers: request.headers });
  }

  /** POSTs `form` as `application/x-www-form-urlencoded`, with the same checks, deadline and size cap as `get`. */
  postForm(rawUrl: string, form: Readonly<Record<string, string>>, request: OutboundRequest = {}): Promise<OutboundResponse> {
    return this.send(rawUrl, {
      method: 'POST',
      accept: request.accept ?? 'application/json',
      headers: request.headers,
      body: { contentType: 'application/x-www-form-urlencoded', bytes: Buffer.from(new URLSearchParams(form).toString(), 'utf8') },
    });
  }

  /** POSTs `body` as `application/json`, with the same checks, deadline and size cap as `get`. */
  postJson(rawUrl: string, body: unknown, request: OutboundRequest = {}): Promise<OutboundResponse> {
    return this.send(rawUrl, {
      method: 'POST',
      accept: request.accept ?? 'application/json',
      headers: request.headers,
      body: { contentType: 'application/json', bytes: Buffer.from(JSON.stringify(body), 'utf8') },
    });
  }

  private async send(rawUrl: string, message: OutboundMessage): Promise<OutboundResponse> {
    const url = parseHttpUrl(rawUrl);
    const deadline = new Deadline(this.config.timeoutMs);
    try {
      const addresses = await deadline.race(this.resolve(url.hostname));
      if (addresses === undefined) throw new OutboundError(OutboundFailure.Unresolvable, `${url.hostname} does not resolve`);
      this.assertAllowed(url.hostname, addresses);
      return await this.fetch(url, addresses, message, deadline);
    } finally {
      deadline.clear();
    }
  }

  /**
   * Refuses a URL whose host is, or resolves to, an address a fetch may not reach, without fetching
   * it. A host that does not resolve (yet) passes: every later fetch checks again.
   */
  async assertPublicDestination(rawUrl: string): Promise<void> {
    if (this.config.allowPrivateNetworks) return;
    const url = parseHttpUrl(rawUrl);
    const deadline = new Deadline(this.config.timeoutMs);
    try {
      const addresses = await deadline.race(this.resolve(url.hostname)).catch((error: unknown) => {
        if (error instanceof OutboundError && error.failure === OutboundFailure.Timeout) return undefined;
        throw error;
      });
      if (addresses !== undefined) this.assertAllowed(url.hostname, addresses);
    } finally {
      deadline.clear();
    }
  }

  private assertAllowed(host: string, addresses: readonly LookupAddress[]): void {
    if (this.config.allowPrivateNetworks) return;
    if (addresses.some((entry) => isForbiddenAddress(entry.address))) {
      throw new OutboundError(OutboundFailure.ForbiddenAddress, `${host} is or resolves to a private or reserved address`);
    }
  }

  /** Every address of the host (an IP literal is its own answer); undefined when it does not resolve. */
  private resolve(hostname: string): Promise<LookupAddress[] | undefined> {
    const host = hostname.replace(/^\[|\]$/g, '');
    const family = isIP(host);
    if (family !== 0) return Promise.resolve([{ address: host, family }]);
    return new Promise((resolve, reject) => {
      dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
        if (error === null) resolve(addresses.length === 0 ? undefined : addresses);
        else if (['ENOTFOUND', 'ENODATA', 'EAI_AGAIN', 'EAI_FAIL', 'ENONAME'].includes(error.code ?? '')) resolve(undefined);
        else reject(new OutboundError(OutboundFailure.Network, `${host} could not be resolved`, { cause: error }));
      });
    });
  }

  private fetch(url: URL, addresses: LookupAddress[], message: OutboundMessage, deadline: Deadline): Promise<OutboundResponse> {
    const maxBytes = this.config.maxBytes;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<OutboundResponse>((resolve, reject) => {
      const fail = (error: OutboundError): void => {
        req.destroy();
        reject(error);
      };
      const req = send(
        url,
        {
          method: message.method,
          agent: false,
          // The connection goes to the addresses checked above, whatever DNS would answer now.
          lookup: pinnedLookup(addresses),
          headers: {
            ...message.headers,
            accept: message.accept,
            'user-agent': USER_AGENT,
            ...(message.body === undefined
              ? {}
              : { 'content-type': message.body.contentType, 'content-length': String(message.body.bytes.length) }),
          },
          ...(this.ca === undefined || url.protocol !== 'https:' ? {} : { ca: this.ca }),
        },
        (response: IncomingMessage) => {
          const declared = Number(response.headers['content-length']);
          if (Number.isFinite(declared) && declared > maxBytes) {
            fail(new OutboundError(OutboundFailure.TooLarge, `the response is larger than ${maxBytes} bytes`));
            return;
          }
          const chunks: Buffer[] = [];
          let received = 0;
          response.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > maxBytes) fail(new OutboundError(OutboundFailure.TooLarge, `the response is larger than ${maxBytes} bytes`));
            else chunks.push(chunk);
          });
          response.once('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
          response.once('error', (error) =>
            reject(new OutboundError(OutboundFailure.Network, 'the response was cut off', { cause: error })),
          );
        },
      );
      req.once('error', (error) =>
        reject(new OutboundError(OutboundFailure.Network, `the request to ${url.host} failed`, { cause: error })),
      );
      deadline.onExpiry(() => fail(timeoutError()));
      req.end(message.body?.bytes);
    });
  }
}

function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError(OutboundFailure.InvalidUrl, 'not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundError(OutboundFailure.InvalidUrl, 'not an http(s) URL');
  return url;
}

/** A `lookup` that answers with the already checked addresses (all of them, for Happy Eyeballs). */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  const [first] = addresses as [LookupAddress];
  return (_hostname, options, callback) => {
    if (options.all === true) (callback as (error: null, all: LookupAddress[]) => void)(null, addresses);
    else callback(null, first.address, first.family);
  };
}

function readCaFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError('OUTBOUND_CA_FILE', `cannot read ${path}: ${(error as Error).message}`);
  }
}

function timeoutError(): OutboundError {
  return new OutboundError(OutboundFailure.Timeout, 'the remote server did not answer in time');
}

/** One time budget shared by resolution, connection and body. */
class Deadline {
  private readonly timer: NodeJS.Timeout;
  private readonly expired: Promise<never>;
  private listeners: Array<() => void> = [];
  private done = false;

  constructor(ms: number) {
    let expire: (error: OutboundError) => void = () => {};
    this.expired = new Promise<never>((_, reject) => (expire = reject));
    this.expired.catch(() => {});
    this.timer = setTimeout(() => {
      this.done = true;
      expire(timeoutError());
      for (const listener of this.listeners) listener();
    }, ms);
    this.timer.unref();
  }

  race<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.expired]);
  }

  onExpiry(listener: () => void): void {
    if (this.done) listener();
    else this.listeners.push(listener);
  }

  clear(): void {
    clearTimeout(this.timer);
    this.listeners = [];
  }
}
