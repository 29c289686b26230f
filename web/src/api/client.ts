/**
 * The one way the workspace talks to Quire: the public `/v1` API and the session endpoints, same origin,
 * authenticated by the session cookie. Writes carry the session's CSRF token. Every failure becomes an
 * ApiError holding the server's message, which screens show as it is (it says what to do).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;

/** Set once the session is known (GET /auth/session gives it). */
export function useCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** The session's CSRF token, for a write sent otherwise than by `request` (an upload with progress). */
export function currentCsrfToken(): string | null {
  return csrfToken;
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'Quire could not be reached. Check your connection; your work is kept and will be sent again.');
  }
  const text = await response.text();
  const parsed: unknown = text ? parseJson(text) : undefined;
  if (!response.ok) {
    const message = errorMessage(parsed) ?? `Quire answered ${response.status} ${response.statusText}.`;
    throw new ApiError(response.status, message);
  }
  return parsed as T;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'error' in body) {
    const error = (body as { error: { message?: unknown } }).error;
    if (error && typeof error.message === 'string') return error.message;
  }
  return undefined;
}
