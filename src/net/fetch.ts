import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { BadRequest } from '../errors.ts';
import { checkDestination, type ResolvedAddress, type Resolver } from './addresses.ts';

/**
 * The one way Quire reads from or sends to a URL a user gave (imports, OpenAPI sources, webhooks, embeds): http and https only, every destination checked
 * (addresses.ts) before connecting and again after each redirect, redirects followed by hand (a bounded
 * number), the connection pinned to the checked address, the body bounded in size, all of it bounded in
 * time by the import's signal.
 */

export const USER_AGENT = 'QuireImporter/1.0';

/** One HTTP exchange, as safeFetch sees it. */
export interface RawResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: AsyncIterable<Buffer>;
  /** Drops the body (of a redirect, an error, or one too large). */
  discard(): void;
}

/** Sends the request (a GET unless `options.method` says otherwise) for `url` to the checked `destination` (tests inject one that answers by hand). */
export type Transport = (url: URL, destination: ResolvedAddress, options: FetchOptions) => Promise<RawResponse>;

export interface FetchOptions {
  allowPrivate: boolean;
  /** What the URL is, for messages ('import URL', 'webhook URL', 'OpenAPI source'); 'import URL' by default. */
  what?: string;
  maxBytes: number;
  maxRedirects: number;
  signal: AbortSignal;
  resolver?: Resolver;
  accept?: string;
  transport?: Transport;
  /** GET by default; webhooks POST. */
  method?: 'GET' | 'POST';
  /** The body of a POST. */
  body?: Buffer;
  /** Headers to send besides user-agent, accept and accept-encoding (content-type, signatures). */
  headers?: Record<string, string>;
  /** The User-Agent sent (QuireImporter/1.0 by default). */
  userAgent?: string;
  /** The setting that allows private destinations, named when one is refused. */
  privateSetting?: string;
}

/** A response whose status was not 2xx (a 400 for the caller; the status is kept for logs such as webhook deliveries). */
export class UnexpectedStatus extends BadRequest {
  constructor(
    readonly responseStatus: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Download {
  /** The URL the bytes came from, after redirects. */
  url: string;
  /** The HTTP status of the answer (2xx); absent for bytes that came from no HTTP answer (a data: URL). */
  status?: number;
  /** The media type, lower case and without parameters ('' when the server sent none). */
  contentType: string;
  /** The whole Content-Type header ('' when none), for its charset. */
  contentTypeHeader: string;
  bytes: Buffer;
}

/** A size for a message: '2.5 MB'. */
export function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A DNS lookup that answers the address that was checked, whatever the name: no second resolution. */
function pinned(destination: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [destination]);
    else callback(null, destination.address, destination.family);
  }) as unknown as LookupFunction;
}

/** The transport of every import: node:http(s), connecting to the checked address, with no connection reuse. */
export const httpTransport: Transport = (url, destination, options) => {
  const module = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = module.request(
      url,
      {
        method: options.method ?? 'GET',
        headers: {
          ...options.headers,
          'user-agent': options.userAgent ?? USER_AGENT,
          accept: options.accept ?? '*/*',
          'accept-encoding': 'identity',
          ...(options.body ? { 'content-length': String(options.body.length) } : {}),
        },
        lookup: pinned(destination),
        agent: false,
        signal: options.signal,
      },
      (response) =>
        resolve({
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          headers: response.headers,
          body: response,
          discard: () => response.destroy(),
        }),
    );
    request.on('error', reject);
    request.end(options.body);
  });
};

function networkError(url: URL, error: unknown, signal: AbortSignal): Error {
  if (signal.aborted) return new BadRequest(`Fetching ${url.origin} took too long and was stopped; nothing was changed.`);
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const reason = code === 'ECONNREFUSED' ? 'the connection was refused'
    : code === 'ECONNRESET' ? 'the connection was reset'
    : code === 'ETIMEDOUT' ? 'the connection timed out'
    : /CERT|SSL|TLS/i.test(code) ? `its TLS certificate was not accepted (${code})`
    : code ? `the network failed (${code})` : 'the network failed';
  return new BadRequest(`Could not fetch ${url.origin}: ${reason}. Check that the URL is reachable from the server.`);
}

async function readBody(url: URL, response: RawResponse, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new BadRequest(`The content at ${url.href} is larger than ${megabytes(maxBytes)}, the most Quire downloads from one URL.`);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.discard();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > maxBytes) {
      response.discard();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Refuses a URL that is not http or https, with the sentence every import uses. */
export function assertHttp(url: URL, what = 'The import URL'): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadRequest(`${what} must use http, https or data; "${url.protocol.replace(/:$/, '')}" is not supported.`);
  }
  if (url.username || url.password) throw new BadRequest(`${what} must not carry a user name or password.`);
}

/** Downloads a URL safely (see above); a status other than 2xx is a 400 naming it. */
export async function safeFetch(input: string | URL, options: FetchOptions): Promise<Download> {
  let url = new URL(input);
  for (let redirects = 0; ; redirects++) {
    assertHttp(url, redirects === 0 ? `The ${options.what ?? 'import URL'}` : `The redirect to ${url.href}`);
    const destination = await checkDestination(url, options);
    let response: RawResponse;
    try {
      response = await (options.transport ?? httpTransport)(url, destination, options);
    } catch (error) {
      throw networkError(url, error, options.signal);
    }
    const status = response.status;
    const location = response.headers.location;
    if (REDIRECTS.has(status) && location) {
      response.discard();
      if (redirects >= options.maxRedirects) throw new BadRequest(`${new URL(input).href} redirects more than ${options.maxRedirects} times; give the final URL instead.`);
      url = new URL(location, url);
      continue;
    }
    if (status < 200 || status > 299) {
      response.discard();
      throw new UnexpectedStatus(status, `Fetching ${url.href} answered ${status} ${response.statusText}`.trimEnd() + '; check the URL.');
    }
    let bytes: Buffer;
    try {
      bytes = await readBody(url, response, options.maxBytes);
    } catch (error) {
      if (error instanceof BadRequest) throw error;
      throw networkError(url, error, options.signal);
    }
    const header = String(response.headers['content-type'] ?? '');
    return { url: url.href, status, contentType: header.split(';')[0].trim().toLowerCase(), contentTypeHeader: header, bytes };
  }
}
