/** Sign-in: browser sessions, passwords, one-time password links, passkeys, recovery codes and WebAuthn challenges. Column conventions: src/db/tables/columns.ts. */

export interface SessionsTable {
  id: string;
  /** SHA-256 of the cookie's opaque id; the id itself is never stored. */
  token_hash: string;
  user_id: string;
  method: string;
  csrf_token: string;
  created_at: string;
  last_used_at: string;
  idle_expires_at: string;
  expires_at: string;
  device: string | null;
  ip: string | null;
}

export interface UserPasswordsTable {
  user_id: string;
  /** Argon2id, in the PHC string format. */
  hash: string;
  updated_at: string;
}

export interface PasswordLinksTable {
  id: string;
  token_hash: string;
  user_id: string;
  purpose: 'invite' | 'reset';
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** SHA-256 of the id of the browser that asked for a self-service reset; null for links passed on by hand. */
  browser_hash: string | null;
}

export interface PasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

export interface WebauthnChallengesTable {
  id: string;
  token_hash: string;
  challenge: string;
  purpose: 'register' | 'sign-in' | 'second-factor';
  user_id: string | null;
  return_to: string | null;
  created_at: string;
  expires_at: string;
}

export interface SignInTables {
  sessions: SessionsTable;
  user_passwords: UserPasswordsTable;
  password_links: PasswordLinksTable;
  passkeys: PasskeysTable;
  recovery_codes: RecoveryCodesTable;
  webauthn_challenges: WebauthnChallengesTable;
}
