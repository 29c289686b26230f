import { escapeAttribute, escapeHtml } from '../published/render/escape.ts';
import type { SsoChoice } from './choice.ts';
import { hidden, link, paragraph } from './pages.ts';

/** The bodies of the sign-in pages this area serves (see pages.ts for the frame and the rules). */

function returnToQuery(returnTo: string): string {
  return returnTo === '/' ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
}

export function ssoForm(returnTo: string, email = '', message?: string): string {
  return [
    message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : '',
    paragraph('Sign in through your organization’s identity provider. Give your work address, or the id of your organization.', 'muted'),
    '<form method="post" action="/sign-in/sso">',
    hidden('returnTo', returnTo),
    '<label for="email">Work e-mail address</label>',
    `<input id="email" name="email" type="email" autocomplete="email" value="${escapeAttribute(email)}" autofocus>`,
    '<p class="or">or</p>',
    '<label for="organization">Organization id</label>',
    '<input id="organization" name="organization" type="text" autocomplete="off" spellcheck="false">',
    '<button type="submit">Find my sign-in</button>',
    '</form>',
  ].join('\n');
}

export function ssoChoices(choices: SsoChoice[], returnTo: string): string {
  const items = choices
    .map((choice) => `<li>${link(choice.startURL + returnToQuery(returnTo), `${choice.label} (${choice.organizationTitle})`, 'button')}</li>`)
    .join('\n');
  return [paragraph('Continue with:'), `<ul class="providers">${items}</ul>`].join('\n');
}

export function emailForm(returnTo: string, proof: string): string {
  return [
    paragraph('We will mail you a link that signs you in once, in this browser, within 15 minutes.', 'muted'),
    '<form method="post" action="/sign-in/email">',
    hidden('returnTo', returnTo),
    hidden('_form', proof),
    '<label for="email">E-mail address</label>',
    '<input id="email" name="email" type="email" autocomplete="email" required autofocus>',
    '<button type="submit">Mail me a sign-in link</button>',
    '</form>',
  ].join('\n');
}

export function emailSent(): string {
  return [
    '<p role="status">If an account uses this address, a sign-in link is on its way. Open it in this browser within 15 minutes.</p>',
    paragraph('Nothing after a few minutes? Check your spam folder, or ask for a new link.', 'muted'),
  ].join('\n');
}

export function emailOff(): string {
  return paragraph('Sign-in links by e-mail are not available on this server (it sends no mail). Sign in with your password or through single sign-on instead.');
}

export function confirmLink(token: string, proof: string): string {
  return [
    paragraph('Continue to sign in to Quire in this browser.'),
    '<form method="post" action="/sign-in/email/verify">',
    hidden('token', token),
    hidden('_form', proof),
    '<button type="submit" autofocus>Sign in</button>',
    '</form>',
  ].join('\n');
}
