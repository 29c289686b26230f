import { createHash, randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { BadRequest, NotFound, Unauthorized } from '../../errors.ts';
import { hashToken } from '../../secrets.ts';
import type { WebauthnChallengesTable } from '../../db/tables/sign-in.ts';

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): registered by a signed-in person, then used to sign
 * in without a password (discoverable credentials: the authenticator names the account) or as the second
 * factor after a password. Each ceremony's challenge is a row of webauthn_challenges named by a random
 * `ceremony` id (hashed), used once, for five minutes. The relying party is QUIRE_PUBLIC_URL's host.
 */
const CEREMONY_MS = 5 * 60_000;
const REFUSED = 'This passkey could not be verified: try again, or sign in another way.';

function relyingParty(ctx: Context): { id: string; origin: string } {
  const url = new URL(ctx.config.publicUrl);
  return { id: url.hostname, origin: url.origin };
}

type Purpose = WebauthnChallengesTable['purpose'];

async function openCeremony(ctx: Context, purpose: Purpose, challenge: string, userId: string | null, returnTo: string | null): Promise<string> {
  const ceremony = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await ctx.db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now.toISOString()).execute();
  await ctx.db
    .insertInto('webauthn_challenges')
    .values({ id: ctx.ids.next(), token_hash: hashToken(ceremony), challenge, purpose, user_id: userId, return_to: returnTo, created_at: now.toISOString(), expires_at: new Date(now.getTime() + CEREMONY_MS).toISOString() })
    .execute();
  return ceremony;
}

/** Takes a ceremony's row (so it cannot be used twice); undefined when unknown, used or expired. */
async function closeCeremony(ctx: Context, ceremony: string, purpose: Purpose): Promise<{ challenge: string; userId: string | null; returnTo: string | null } | undefined> {
  return inTransaction(ctx, async (tx) => {
    const row = await tx.db
      .selectFrom('webauthn_challenges')
      .select(['id', 'challenge', 'user_id', 'return_to'])
      .where('token_hash', '=', hashToken(ceremony))
      .where('purpose', '=', purpose)
      .where('expires_at', '>', nowIso(tx))
      .executeTakeFirst();
    if (!row) return undefined;
    const deleted = await tx.db.deleteFrom('webauthn_challenges').where('id', '=', row.id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) return undefined;
    return { challenge: row.challenge, userId: row.user_id, returnTo: row.return_to };
  });
}

async function userPasskeys(ctx: Context, userId: string) {
  return ctx.db.selectFrom('passkeys').select(['credential_id', 'transports']).where('user_id', '=', userId).execute();
}

// ---- registration ----

export async function registrationOptions(ctx: Context, userId: string): Promise<{ ceremony: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const user = await ctx.db.selectFrom('users').select(['id', 'email', 'display_name']).where('id', '=', userId).executeTakeFirstOrThrow();
  const rp = relyingParty(ctx);
  const options = await generateRegistrationOptions({
    rpName: 'Quire',
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.display_name,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: (await userPasskeys(ctx, userId)).map((row) => ({ id: row.credential_id, transports: JSON.parse(row.transports) as string[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  return { ceremony: await openCeremony(ctx, 'register', options.challenge, userId, null), options };
}

/** Verifies a new passkey and stores it; answers whether it is the person's first. */
export async function registerPasskey(ctx: Context, userId: string, ceremony: string, response: RegistrationResponseJSON, name: string): Promise<{ first: boolean }> {
  const opened = await closeCeremony(ctx, ceremony, 'register');
  if (!opened || opened.userId !== userId) throw new BadRequest('This passkey registration has expired or was already used: start again.');
  const rp = relyingParty(ctx);
  let verified;
  try {
    verified = await verifyRegistrationResponse({ response, expectedChallenge: opened.challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: false });
  } catch (error) {
    throw new BadRequest(`The passkey could not be registered: ${(error as Error).message}`);
  }
  if (!verified.verified) throw new BadRequest('The passkey could not be registered: the authenticator\'s answer did not verify.');
  const { credential } = verified.registrationInfo;
  const label = name.trim().slice(0, 64) || 'Passkey';
  return inTransaction(ctx, async (tx) => {
    const before = await userPasskeys(tx, userId);
    await tx.db
      .insertInto('passkeys')
      .values({
        id: tx.ids.next(),
        user_id: userId,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? []),
        name: label,
        created_at: nowIso(tx),
        last_used_at: null,
      })
      .execute();
    return { first: before.length === 0 };
  });
}

// ---- authentication ----

/** Options to sign in with any passkey of this site (the authenticator offers the accounts it holds). */
export async function signInOptions(ctx: Context, returnTo: string): Promise<{ ceremony: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await generateAuthenticationOptions({ rpID: relyingParty(ctx).id, userVerification: 'preferred' });
  return { ceremony: await openCeremony(ctx, 'sign-in', options.challenge, null, returnTo), options };
}

/** Options for the second factor of a pending password sign-in: that person's passkeys only. */
export async function secondFactorOptions(ctx: Context, pendingId: string, userId: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).id,
    userVerification: 'preferred',
    allowCredentials: (await userPasskeys(ctx, userId)).map((row) => ({ id: row.credential_id, transports: JSON.parse(row.transports) as string[] })),
  });
  await ctx.db.updateTable('webauthn_challenges').set({ challenge: options.challenge }).where('id', '=', pendingId).execute();
  return options;
}

/**
 * Checks an assertion against a stored passkey and the expected challenge; moves its counter on. Answers
 * the passkey's user. `userId`, when given, is the only user whose passkey is accepted.
 */
export async function verifyPasskey(ctx: Context, response: AuthenticationResponseJSON, expectedChallenge: string, userId?: string): Promise<string> {
  if (!expectedChallenge) throw new Unauthorized(REFUSED);
  const stored = await ctx.db.selectFrom('passkeys').selectAll().where('credential_id', '=', String(response?.id ?? '')).executeTakeFirst();
  if (!stored || (userId !== undefined && stored.user_id !== userId)) throw new Unauthorized(REFUSED);
  const rp = relyingParty(ctx);
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
      credential: { id: stored.credential_id, publicKey: Buffer.from(stored.public_key, 'base64url'), counter: Number(stored.counter), transports: JSON.parse(stored.transports) as string[] },
    });
  } catch {
    // The library says why in its message, which may name the expected challenge; the person gets one sentence.
    throw new Unauthorized(REFUSED);
  }
  if (!verified.verified) throw new Unauthorized(REFUSED);
  await ctx.db.updateTable('passkeys').set({ counter: verified.authenticationInfo.newCounter, last_used_at: nowIso(ctx) }).where('id', '=', stored.id).execute();
  return stored.user_id;
}

/** Signs in with a passkey: the ceremony must be live and unused. Answers the user and where to go. */
export async function signInWithPasskey(ctx: Context, ceremony: string, response: AuthenticationResponseJSON): Promise<{ userId: string; returnTo: string }> {
  const opened = await closeCeremony(ctx, ceremony, 'sign-in');
  if (!opened) throw new Unauthorized('This passkey sign-in has expired or was already used: start again.');
  return { userId: await verifyPasskey(ctx, response, opened.challenge), returnTo: opened.returnTo ?? '/' };
}

// ---- management ----

/** Removes one of the person's passkeys; with the last one go the recovery codes (nothing left to recover). */
export async function removePasskey(ctx: Context, userId: string, passkeyId: string): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const result = await tx.db.deleteFrom('passkeys').where('id', '=', passkeyId).where('user_id', '=', userId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new NotFound('You have no such passkey: it may have been removed already.');
    const left = await userPasskeys(tx, userId);
    if (left.length === 0) await tx.db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  });
}

// ---- recovery codes ----

const RECOVERY_CODES = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(`quire-recovery:${code.toLowerCase().replace(/[^a-z0-9]/g, '')}`).digest('hex');
}

function newRecoveryCode(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((byte) => ALPHABET[byte % ALPHABET.length]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8, 12).join('')}`;
}

/**
 * Replaces a person's recovery codes with ten new ones, answered this once; only their SHA-256 is kept
 * (about 59 random bits each, used once, and tried only through the throttled second-factor form).
 */
export async function replaceRecoveryCodes(ctx: Context, userId: string): Promise<string[]> {
  return inTransaction(ctx, async (tx) => {
    if ((await userPasskeys(tx, userId)).length === 0) throw new BadRequest('Recovery codes stand in for a passkey: add a passkey first.');
    await tx.db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    const now = nowIso(tx);
    await tx.db
      .insertInto('recovery_codes')
      .values(codes.map((code) => ({ id: tx.ids.next(), user_id: userId, code_hash: recoveryCodeHash(code), created_at: now, used_at: null })))
      .execute();
    return codes;
  });
}

/** Uses one of a person's recovery codes; false when it is not one of theirs or was used. */
export async function useRecoveryCode(ctx: Context, userId: string, code: string): Promise<boolean> {
  const result = await ctx.db
    .updateTable('recovery_codes')
    .set({ used_at: nowIso(ctx) })
    .where('user_id', '=', userId)
    .where('code_hash', '=', recoveryCodeHash(code))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
