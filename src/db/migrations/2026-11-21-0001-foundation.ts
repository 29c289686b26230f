import type { Kysely } from 'kysely';

/** Identity and organizations: users, API tokens, organizations, members, teams, SAML providers, link invites. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('photo_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('hostname', 'text', (c) => c.unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('use_case', 'text')
    .addColumn('community_type', 'text')
    .addColumn('default_role', 'text')
    .addColumn('default_content', 'text')
    .addColumn('logo_url', 'text')
    .addColumn('sso', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ai', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invite_links', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('email_domains', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('signing_key', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('organization_email_domains')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_email_domains_pk', ['organization_id', 'domain'])
    .execute();
  await db.schema.createIndex('organization_email_domains_domain').on('organization_email_domains').column('domain').execute();

  await db.schema
    .createTable('members')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sso', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text')
    .addPrimaryKeyConstraint('members_pk', ['organization_id', 'user_id'])
    .execute();
  await db.schema.createIndex('members_user').on('members').column('user_id').execute();
  await db.schema.createIndex('members_joined').on('members').columns(['organization_id', 'joined_at', 'user_id']).execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('teams_organization').on('teams').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('added_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();

  await db.schema
    .createTable('saml_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text')
    .addColumn('sso_url', 'text')
    .addColumn('certificate', 'text')
    .addColumn('default_team_id', 'text', (c) => c.references('teams.id').onDelete('set null'))
    .addColumn('default_role', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saml_providers_organization').on('saml_providers').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('link_invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('role', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('link_invites_organization').on('link_invites').columns(['organization_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['link_invites', 'saml_providers', 'team_members', 'teams', 'members', 'organization_email_domains', 'organizations', 'api_tokens', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
