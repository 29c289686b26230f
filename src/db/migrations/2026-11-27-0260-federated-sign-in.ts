import type { Kysely } from 'kysely';

/**
 * The federated ways in: OpenID Connect providers of an organization (their client secret sealed with the
 * master key), the short-lived records that bind a login under way to the browser that started it (OIDC
 * state, nonce and PKCE verifier; the id of a SAML request), the SAML assertions already used (so none is
 * accepted twice before it expires), and the one-time sign-in links sent by mail (magic links), stored
 * only as SHA-256 hashes. Invite and password-reset links are the session module's (password_links).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('default_role', 'text')
    .addColumn('default_team_id', 'text', (c) => c.references('teams.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oidc_providers_organization').on('oidc_providers').columns(['organization_id', 'created_at']).execute();

  await db.schema
    .createTable('sso_flows')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_flows_expiry').on('sso_flows').column('expires_at').execute();

  await db.schema
    .createTable('saml_used_assertions')
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('assertion_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('saml_used_assertions_pk', ['provider_id', 'assertion_id'])
    .execute();
  await db.schema.createIndex('saml_used_assertions_expiry').on('saml_used_assertions').column('expires_at').execute();

  await db.schema
    .createTable('magic_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('magic_links_email').on('magic_links').columns(['email', 'created_at']).execute();
  await db.schema.createIndex('magic_links_expiry').on('magic_links').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['magic_links', 'saml_used_assertions', 'sso_flows', 'oidc_providers']) await db.schema.dropTable(table).execute();
}
