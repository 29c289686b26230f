import type { Kysely } from 'kysely';

/**
 * People sign in: browser sessions (only a SHA-256 hash of the cookie's id is stored), password hashes
 * (Argon2id, in a table of their own so no user query can read one by accident), one-time links that set a
 * password (an invite's first password, a reset), passkeys (WebAuthn credentials), hashed recovery codes,
 * and the short-lived WebAuthn challenges of ceremonies under way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** How the person signed in: password, passkey, oidc, saml, magic-link, invite. */
    .addColumn('method', 'text', (c) => c.notNull())
    /** The per-session token cookie-authenticated writes must echo (X-CSRF-Token, or _csrf in forms). */
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    /** last_used_at + QUIRE_SESSION_IDLE_HOURS, moved on with each recorded use. */
    .addColumn('idle_expires_at', 'text', (c) => c.notNull())
    /** created_at + QUIRE_SESSION_MAX_DAYS: the session ends then, used or not. */
    .addColumn('expires_at', 'text', (c) => c.notNull())
    /** A short summary of the browser's user agent ("Chrome on Linux"), not the whole header. */
    .addColumn('device', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('user_passwords')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('password_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** 'invite' (sets the first password) or 'reset'. */
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('password_links_user').on('password_links').column('user_id').execute();

  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** The credential id the authenticator gave, base64url. */
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    /** The COSE public key, base64url. */
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'integer', (c) => c.notNull())
    /** JSON array of transports the authenticator named (usb, internal, hybrid, …). */
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').column('user_id').execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** SHA-256 of the random id in the ceremony's cookie. */
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('challenge', 'text', (c) => c.notNull())
    /** 'register', 'sign-in' or 'second-factor'. */
    .addColumn('purpose', 'text', (c) => c.notNull())
    /** The user the ceremony is for (null for a passkey sign-in, where the authenticator names the user). */
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    /** Where to go once signed in (a same-origin path). */
    .addColumn('return_to', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webauthn_challenges', 'recovery_codes', 'passkeys', 'password_links', 'user_passwords', 'sessions']) {
    await db.schema.dropTable(table).execute();
  }
}
