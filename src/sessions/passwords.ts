import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';
import type { Context } from '../context.ts';
import { nowIso } from '../context.ts';

/**
 * Passwords: Argon2id (`@node-rs/argon2`) with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane), in
 * the PHC string format, so the parameters travel with each hash and can be raised later. Verification is
 * the library's, which compares in constant time.
 */
const ARGON2ID = 2 as Algorithm;
const OPTIONS: Options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;

let common: Set<string> | undefined;

/** The common passwords shipped beside this file (common-passwords.txt: its source and licence are in its header). */
function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(join(import.meta.dirname, 'common-passwords.txt'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => line.toLowerCase()),
  );
  return common;
}

/**
 * Why a new password is refused, in words a person can act on, or undefined when it is acceptable: at
 * least 10 characters, at most 1024, not a common password, not the person's own address.
 */
export function passwordProblem(password: string, email?: string): string | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters; a few unrelated words make a good one.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Choose a password of at most ${MAX_PASSWORD_LENGTH} characters.`;
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return 'This password is on a list of commonly used passwords that attackers try first: choose another.';
  if (email && (lower === email.toLowerCase() || lower === email.toLowerCase().split('@')[0])) return 'Choose a password that is not your e-mail address.';
  return undefined;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A hash of nothing anyone knows, verified against when the address is unknown, so both cases take as long. */
let decoy: Promise<string> | undefined;

/**
 * Whether `password` is the one a user set. For a user without a password (or an unknown address, `hash`
 * undefined) a decoy hash is verified all the same, so the answer takes as long either way.
 */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  if (stored === undefined) {
    decoy ??= hash('quire-decoy-password-for-unknown-addresses', OPTIONS);
    await verify(await decoy, password);
    return false;
  }
  return verify(stored, password);
}

/** Sets (or replaces) a user's password; the caller has checked it with passwordProblem. */
export async function storePassword(ctx: Context, userId: string, password: string): Promise<void> {
  const row = { user_id: userId, hash: await hashPassword(password), updated_at: nowIso(ctx) };
  await ctx.db
    .insertInto('user_passwords')
    .values(row)
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ hash: row.hash, updated_at: row.updated_at }))
    .execute();
}

/** A user's stored hash, if they have a password. */
export async function storedPassword(ctx: Context, userId: string): Promise<string | undefined> {
  const row = await ctx.db.selectFrom('user_passwords').select('hash').where('user_id', '=', userId).executeTakeFirst();
  return row?.hash;
}
