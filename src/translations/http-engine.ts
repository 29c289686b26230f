import { EngineError } from './engine.ts';

/**
 * One JSON request to an HTTP engine the operator configured (QUIRE_TRANSLATION_URL). The address comes
 * from the operator, not from a user, so it is called directly (it may well live on the private network)
 * rather than through the user-URL guard of src/net; a timeout bounds every call.
 */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}, timeoutMs = 120_000): Promise<unknown> {
  return callJson(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }, timeoutMs);
}

export async function getJson(url: string, headers: Record<string, string> = {}, timeoutMs = 30_000): Promise<unknown> {
  return callJson(url, { method: 'GET', headers }, timeoutMs);
}

async function callJson(url: string, init: RequestInit, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new EngineError(`The translation engine at ${new URL(url).origin} did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text();
  if (!response.ok) throw new EngineError(`The translation engine answered ${response.status} to ${new URL(url).pathname}: ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EngineError(`The translation engine answered ${new URL(url).pathname} with something that is not JSON.`);
  }
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}
