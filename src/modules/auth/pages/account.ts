import type { AccountView } from '../account-service.ts';
import { csrfField, html, notice, page, type Html } from './html.ts';

export interface AccountPageOptions {
  csrf: string;
  currentSessionId: string;
  error?: string;
  info?: string;
  /** A token just created: its secret, shown this once. */
  newToken?: string;
  /** Recovery codes just created, shown this once. */
  recoveryCodes?: string[];
}

function when(iso: string | null): string {
  return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never';
}

function postButton(action: string, csrf: string, label: string, kind: 'danger' | 'secondary', accessibleName?: string): Html {
  return html`<form class="inline" method="post" action="${action}">${csrfField(csrf)}<button type="submit" class="${kind} inline"${accessibleName ? html` aria-label="${accessibleName}"` : ''}>${label}</button></form>`;
}

export function accountPage(view: AccountView, options: AccountPageOptions): string {
  const { csrf } = options;
  const sessions = view.sessions.map(
    (session) => html`<tr>
<td>${session.device ?? 'Unknown browser'}${session.id === options.currentSessionId ? html` <strong>(this browser)</strong>` : ''}</td>
<td>${session.ip ?? 'unknown'}</td>
<td>${when(session.last_used_at)}</td>
<td>${postButton(`/account/sessions/${session.id}/end`, csrf, 'Sign out', 'secondary', `Sign out ${session.device ?? 'this session'}, last used ${when(session.last_used_at)}`)}</td>
</tr>`,
  );
  const tokens = view.tokens.map(
    (token) => html`<tr>
<td>${token.name ?? 'unnamed'}</td>
<td>${when(token.created_at)}</td>
<td>${when(token.last_used_at)}</td>
<td>${token.expires_at ? when(token.expires_at) : 'never'}</td>
<td>${postButton(`/account/tokens/${token.id}/revoke`, csrf, 'Revoke', 'danger', `Revoke token ${token.name ?? token.id}`)}</td>
</tr>`,
  );
  const passkeys = view.passkeys.map(
    (passkey) => html`<tr>
<td>${passkey.name}</td>
<td>${when(passkey.createdAt)}</td>
<td>${when(passkey.lastUsedAt)}</td>
<td>${postButton(`/account/passkeys/${passkey.id}/remove`, csrf, 'Remove', 'danger', `Remove passkey ${passkey.name}`)}</td>
</tr>`,
  );
  const organizations = view.organizations.map(
    (organization) => html`<tr>
<td>${organization.title}</td>
<td>${organization.role ?? 'guest'}</td>
<td>${postButton(`/account/organizations/${organization.id}/leave`, csrf, 'Leave', 'danger', `Leave ${organization.title}`)}</td>
</tr>`,
  );
  const invitations = view.invitations.map(
    (invitation) => html`<tr>
<td>${invitation.organizationTitle}</td>
<td>${invitation.role ?? 'guest'}</td>
<td>${when(invitation.expiresAt)}</td>
<td>${postButton(`/account/invitations/${invitation.organizationId}/${invitation.id}/accept`, csrf, 'Accept', 'secondary', `Accept the invitation to ${invitation.organizationTitle}`)} ${postButton(`/account/invitations/${invitation.organizationId}/${invitation.id}/decline`, csrf, 'Decline', 'danger', `Decline the invitation to ${invitation.organizationTitle}`)}</td>
</tr>`,
  );
  const body = html`<nav class="top" aria-label="Quire">
<a href="/">Quire</a>
<form method="post" action="/sign-out">${csrfField(csrf)}<button type="submit" class="secondary inline">Sign out</button></form>
</nav>
<main class="wide">
<h1>Your account</h1>
${notice('error', options.error)}${notice('success', options.info)}

<section class="panel" aria-labelledby="profile-title">
<h2 id="profile-title">Profile</h2>
<p class="muted">Signed in as <strong>${view.user.email}</strong>.</p>
<form method="post" action="/account/profile">${csrfField(csrf)}
<label for="displayName">Name</label>
<input id="displayName" name="displayName" type="text" autocomplete="name" maxlength="64" required value="${view.user.displayName}">
<label for="photoURL">Photo address</label>
<input id="photoURL" name="photoURL" type="url" autocomplete="photo" maxlength="2048" placeholder="https://example.com/me.png" value="${view.user.photoURL ?? ''}">
<button type="submit">Save profile</button>
</form>
</section>

<section class="panel" aria-labelledby="password-title">
<h2 id="password-title">Password</h2>
<form method="post" action="/account/password">${csrfField(csrf)}
<input type="email" name="username" autocomplete="username" value="${view.user.email}" hidden>
${view.hasPassword ? html`<label for="current">Current password</label>
<input id="current" name="current" type="password" autocomplete="current-password" required>` : html`<p class="muted">You have no password yet; set one to sign in with your e-mail address.</p>`}
<label for="new-password">New password</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" minlength="10" required aria-describedby="password-rule">
<p class="muted" id="password-rule">At least 10 characters. Changing it signs you out everywhere else.</p>
<label for="confirm">New password again</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<button type="submit">${view.hasPassword ? 'Change password' : 'Set password'}</button>
</form>
</section>

<section class="panel" aria-labelledby="passkeys-title">
<h2 id="passkeys-title">Passkeys</h2>
<p class="muted">A passkey signs you in without a password. Once you have one, signing in with your password also asks for a passkey (or a recovery code).</p>
${view.passkeys.length > 0 ? html`<table><caption class="muted">Your passkeys</caption><thead><tr><th scope="col">Name</th><th scope="col">Added</th><th scope="col">Last used</th><th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>${passkeys}</tbody></table>` : html`<p>You have no passkey.</p>`}
<div hidden>
<p class="notice notice-error" role="alert" id="passkey-register-error" hidden></p>
<label for="passkey-name">Name of the new passkey</label>
<input id="passkey-name" type="text" maxlength="64" placeholder="Laptop">
<button type="button" id="passkey-register" data-csrf="${csrf}">Add a passkey</button>
</div>
${options.recoveryCodes ? html`<div class="notice notice-success" role="status"><p><strong>Your recovery codes.</strong> Each signs you in once in place of a passkey. Keep them somewhere safe: they are shown only now.</p><ul class="codes">${options.recoveryCodes.map((code) => html`<li>${code}</li>`)}</ul></div>` : ''}
${view.passkeys.length > 0 ? html`<p>${view.recoveryCodesLeft} unused recovery code${view.recoveryCodesLeft === 1 ? '' : 's'}.</p>
<form method="post" action="/account/recovery-codes">${csrfField(csrf)}<button type="submit" class="secondary">${view.recoveryCodesLeft > 0 ? 'Replace my recovery codes' : 'Create recovery codes'}</button></form>` : ''}
</section>

<section class="panel" aria-labelledby="sessions-title">
<h2 id="sessions-title">Where you are signed in</h2>
<table><thead><tr><th scope="col">Browser</th><th scope="col">Address</th><th scope="col">Last used</th><th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>${sessions}</tbody></table>
<form class="inline" method="post" action="/account/sessions/end-others">${csrfField(csrf)}<button type="submit" class="secondary">Sign out everywhere else</button></form>
<form class="inline" method="post" action="/account/sessions/end-all">${csrfField(csrf)}<button type="submit" class="danger">Sign out everywhere</button></form>
</section>

<section class="panel" aria-labelledby="tokens-title">
<h2 id="tokens-title">API tokens</h2>
<p class="muted">Tokens let scripts call Quire's API as you (<code>Authorization: Bearer …</code>).</p>
${options.newToken ? html`<div class="notice notice-success" role="status"><p><strong>Your new token.</strong> Copy it now: it is shown only this once.</p><code class="secret">${options.newToken}</code></div>` : ''}
${view.tokens.length > 0 ? html`<table><thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>${tokens}</tbody></table>` : html`<p>You have no active token.</p>`}
<form method="post" action="/account/tokens">${csrfField(csrf)}
<label for="token-name">Name of a new token</label>
<input id="token-name" name="name" type="text" maxlength="100" placeholder="Deploy script">
<label for="token-expiry">Expires</label>
<select id="token-expiry" name="expiresIn">
<option value="30d">in 30 days</option>
<option value="90d">in 90 days</option>
<option value="365d">in a year</option>
<option value="">never</option>
</select>
<button type="submit">Create token</button>
</form>
</section>

${view.invitations.length > 0 ? html`<section class="panel" aria-labelledby="invitations-title">
<h2 id="invitations-title">Invitations</h2>
<p>You become a member of an organization only when you accept its invitation.</p>
<table><thead><tr><th scope="col">Organization</th><th scope="col">Role offered</th><th scope="col">Open until</th><th scope="col"><span class="muted">Answer</span></th></tr></thead><tbody>${invitations}</tbody></table>
</section>

` : ''}<section class="panel" aria-labelledby="organizations-title">
<h2 id="organizations-title">Organizations</h2>
${view.organizations.length > 0 ? html`<table><thead><tr><th scope="col">Organization</th><th scope="col">Your role</th><th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>${organizations}</tbody></table>` : html`<p>You belong to no organization.</p>`}
</section>
</main>`;
  return page({ title: 'Your account', body, scripts: ['webauthn.js', 'passkeys.js'] });
}
