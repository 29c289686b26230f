import { html, notice, page } from './html.ts';

export interface SetPasswordView {
  purpose: 'invite' | 'reset';
  email: string;
  displayName: string;
  error?: string;
}

export function setPasswordPage(view: SetPasswordView): string {
  const invite = view.purpose === 'invite';
  // The form has no action: it posts back to the link itself, so the page never repeats the link's secret.
  const body = html`<main>
<div class="panel">
<h1>${invite ? 'Welcome to Quire' : 'Choose a new password'}</h1>
<p>${invite ? 'You have been invited. Choose a password to finish setting up your account' : 'Choose a new password for your account'} <strong>${view.email}</strong>.</p>
${notice('error', view.error)}
<form method="post" novalidate>
${invite ? html`<label for="displayName">Your name</label>
<input id="displayName" name="displayName" type="text" autocomplete="name" maxlength="64" required value="${view.displayName}">` : ''}
<input type="email" name="username" autocomplete="username" value="${view.email}" hidden>
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required aria-describedby="password-rule">
<p class="muted" id="password-rule">At least 10 characters; a few unrelated words make a good one.</p>
<label for="confirm">New password again</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<button type="submit">${invite ? 'Set password and sign in' : 'Change password and sign in'}</button>
</form>
</div>
</main>`;
  return page({ title: invite ? 'Accept your invitation' : 'Reset your password', body });
}

export function deadLinkPage(): string {
  const body = html`<main>
<div class="panel">
<h1>This link no longer works</h1>
<p>It has been used already, or it has expired. Ask for a new one: with “Forgot password?” on the sign-in page where this server sends mail, or from an administrator of your organization.</p>
<p><a href="/sign-in">Go to the sign-in page</a></p>
</div>
</main>`;
  return page({ title: 'Link expired', body });
}
