import { html, notice, page, type Html } from './html.ts';

export interface SignInView {
  returnTo: string;
  email?: string;
  error?: string;
  info?: string;
  /** Mail is configured: offer "Forgot password?" (a reset link by mail). */
  mail?: boolean;
}

/** Query string that keeps the page to go to after signing in. */
function carry(returnTo: string): string {
  return returnTo === '/' ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
}

export function signInPage(view: SignInView): string {
  const body: Html = html`<main>
<div class="panel">
<h1>Sign in to Quire</h1>
${notice('error', view.error)}${notice('success', view.info)}
<form method="post" action="/sign-in" novalidate>
<input type="hidden" name="returnTo" value="${view.returnTo}">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="username webauthn" required value="${view.email ?? ''}" ${view.email ? '' : html`autofocus`}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required ${view.email ? html`autofocus` : ''}>
<button type="submit">Sign in</button>
</form>
<div id="passkey-area" hidden>
<p class="notice notice-error" role="alert" id="passkey-error" hidden></p>
<button type="button" class="secondary" id="passkey-sign-in" data-return-to="${view.returnTo}">Sign in with a passkey</button>
</div>
<ul class="alternatives">
<li><a href="/sign-in/sso${carry(view.returnTo)}">Sign in with single sign-on (SSO)</a></li>
<li><a href="/sign-in/email${carry(view.returnTo)}">E-mail me a sign-in link</a></li>
</ul>
${view.mail ? html`<p><a href="/reset-password">Forgot password?</a></p>` : html`<p class="muted">Forgot your password? Ask an administrator of your organization for a reset link.</p>`}
</div>
</main>`;
  return page({ title: 'Sign in', body, scripts: ['webauthn.js', 'passkeys.js'] });
}
