/**
 * Typed errors that services throw. Each carries the HTTP status it means; the one error handler
 * in src/http/errors.ts turns them into `{ error: { code, message } }`.
 */
export class QuireError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends QuireError {
  constructor(message: string) {
    super(400, message);
  }
}

/** A text member trimmed, refused when nothing but spaces is left (a schema's minLength counts the spaces). */
export function nonBlank(value: string, member: string, hint: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new BadRequest(`The body member "${member}" must not be blank: ${hint}`);
  return trimmed;
}

export class Unauthorized extends QuireError {
  constructor(message = 'Authentication is required: send "Authorization: Bearer <token>".') {
    super(401, message);
  }
}

export class Forbidden extends QuireError {
  constructor(message: string) {
    super(403, message);
  }
}

export class NotFound extends QuireError {
  constructor(message: string) {
    super(404, message);
  }
}

export class Conflict extends QuireError {
  constructor(message: string) {
    super(409, message);
  }
}

export class Gone extends QuireError {
  constructor(message: string) {
    super(410, message);
  }
}

export class TooManyRequests extends QuireError {
  constructor(message: string) {
    super(429, message);
  }
}

export class PayloadTooLarge extends QuireError {
  constructor(message: string) {
    super(413, message);
  }
}
