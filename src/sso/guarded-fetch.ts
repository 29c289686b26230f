import type { Config } from '../config.ts';
import { checkDestination } from '../net/addresses.ts';
import { assertHttp, httpTransport, type FetchOptions } from '../net/fetch.ts';

/** The most an OpenID provider's answer (discovery, keys, tokens, user info) may weigh. */
const MAX_BYTES = 1024 * 1024;
const TIMEOUT_MS = 10_000;

type FetchBody = ArrayBuffer | null | ReadableStream | string | Uint8Array | undefined | URLSearchParams;

async function bodyBytes(body: FetchBody): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  return Buffer.from(await new Response(body).arrayBuffer());
}

/**
 * The fetch openid-client uses for everything it asks the provider (discovery, keys, token, user info),
 * through the outbound address guard as every URL an administrator gives: each destination checked and
 * the connection pinned to the checked address, loopback and private networks refused unless the operator
 * allows them (QUIRE_IMPORT_ALLOW_PRIVATE), answers bounded in size and time. Redirects are not followed
 * (openid-client asks for none). Nothing of the exchange is logged.
 */
export function guardedFetch(config: Pick<Config, 'importAllowPrivate'>) {
  return async (input: string, options: { body: FetchBody; headers: Record<string, string>; method: string; signal?: AbortSignal }): Promise<Response> => {
    const url = new URL(input);
    assertHttp(url, 'The OpenID provider address');
    const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS);
    const fetchOptions: FetchOptions = {
      allowPrivate: config.importAllowPrivate,
      what: 'OpenID provider address',
      privateSetting: 'QUIRE_IMPORT_ALLOW_PRIVATE',
      maxBytes: MAX_BYTES,
      maxRedirects: 0,
      signal,
      method: options.method === 'POST' ? 'POST' : 'GET',
      body: await bodyBytes(options.body),
      headers: options.headers,
      accept: options.headers.accept ?? 'application/json',
      userAgent: 'Quire',
    };
    const destination = await checkDestination(url, fetchOptions);
    const response = await httpTransport(url, destination, fetchOptions);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > MAX_BYTES) {
        response.discard();
        throw new Error(`The OpenID provider at ${url.origin} answered more than ${MAX_BYTES} bytes.`);
      }
      chunks.push(chunk);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    const status = response.status;
    const noBody = status === 204 || status === 304 || (status >= 300 && status < 400 && chunks.length === 0);
    return new Response(noBody ? null : Buffer.concat(chunks), { status, statusText: response.statusText, headers });
  };
}
