/**
 * A federated sign-in that is refused: its message is for the person in front of the browser, shown on
 * a page (never JSON), and says what to do. It names no credential, and the log records only `reason`, a
 * fixed word, so no code, assertion, token or identity-provider error text reaches the logs.
 */
export class SignInRefused extends Error {
  constructor(
    message: string,
    /** A fixed word for the log (state-mismatch, replayed-assertion …). */
    readonly reason: string,
    /** 400 for a broken or stale request, 403 for someone this organization does not let in. */
    readonly status: 400 | 403 | 404 = 400,
  ) {
    super(message);
  }
}
