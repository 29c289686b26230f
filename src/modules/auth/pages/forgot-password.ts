import { html, notice, page } from './html.ts';

export interface ForgotPasswordView {
  /** The form's proof that this server served it to this browser. */
  proof: string;
  email?: string;
  error?: string;
}

/** "Forgot password?": the address to send a reset link to (only where mail is configured). */
export function forgotPasswordPage(view: ForgotPasswordView): string {
  const body = html`<main>
<div class="panel">
<h1>Reset your password</h1>
<p>Give the e-mail address of your Quire account. If an account uses it, we mail it a link to choose a new password.</p>
${notice('error', view.error)}
<form method="post" action="/reset-password" novalidate>
<input type="hidden" name="_form" value="${view.proof}">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${view.email ?? ''}" autofocus>
<button type="submit">Mail me a reset link</button>
</form>
<p><a href="/sign-in">Back to the sign-in page</a></p>
</div>
</main>`;
  return page({ title: 'Reset your password', body });
}

/** The one answer to every accepted request, known address or not. */
export function resetSentPage(minutes: number): string {
  const body = html`<main>
<div class="panel">
<h1>Check your mail</h1>
<p class="notice notice-success" role="status">If an account uses this address, a link to reset its password is on its way.</p>
<p>Open it in this browser within ${minutes} minutes; it works once. If no mail comes, check the address and your spam folder, or ask an administrator of your organization.</p>
<p><a href="/sign-in">Back to the sign-in page</a></p>
</div>
</main>`;
  return page({ title: 'Check your mail', body });
}

/** Without mail, a forgotten password is reset by an administrator (or the operator's CLI). */
export function resetOffPage(): string {
  const body = html`<main>
<div class="panel">
<h1>Reset your password</h1>
<p>This server does not send mail, so it cannot mail you a reset link. Ask an administrator of your organization for a reset link.</p>
<p><a href="/sign-in">Back to the sign-in page</a></p>
</div>
</main>`;
  return page({ title: 'Reset your password', body });
}

/** A reset link opened in another browser than the one that asked for it. */
export function otherBrowserPage(message: string): string {
  const body = html`<main>
<div class="panel">
<h1>Open this link where you asked for it</h1>
<p class="notice notice-error" role="alert">${message}</p>
<p><a href="/reset-password">Ask for a new link from this browser</a></p>
</div>
</main>`;
  return page({ title: 'Wrong browser', body });
}
