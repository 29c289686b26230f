import { html, notice, page } from './html.ts';

export function secondFactorPage(error?: string): string {
  const body = html`<main>
<div class="panel">
<h1>Confirm it is you</h1>
<p>Your password is right. Your account has a passkey: use it to finish signing in.</p>
${notice('error', error)}
<div hidden>
<p class="notice notice-error" role="alert" id="passkey-error" hidden></p>
<button type="button" id="passkey-second-factor">Use my passkey</button>
</div>
<form method="post" action="/sign-in/second-factor" novalidate>
<label for="code">Or type one of your recovery codes</label>
<input id="code" name="code" type="text" autocomplete="one-time-code" spellcheck="false" required>
<button type="submit" class="secondary">Sign in with a recovery code</button>
</form>
<ul class="alternatives"><li><a href="/sign-in">Start again</a></li></ul>
</div>
</main>`;
  return page({ title: 'Confirm it is you', body, scripts: ['webauthn.js', 'passkeys.js'] });
}
