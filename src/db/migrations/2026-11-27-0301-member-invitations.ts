import type { Kysely } from 'kysely';

/**
 * Invitations waiting for the person's answer: an administrator who invites by address someone Quire
 * already knows (who may belong to other organizations) no longer makes them a member at once; the person
 * accepts (or declines) on their account page or with POST /v1/orgs/{organizationId}/invites/{inviteId}.
 * One per organization and user; the role and SSO flag are those the membership will get.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('member_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text')
    .addColumn('sso', 'integer', (c) => c.notNull())
    .addColumn('invited_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('member_invitations_organization_user', ['organization_id', 'user_id'])
    .execute();
  await db.schema.createIndex('member_invitations_user').on('member_invitations').columns(['user_id', 'created_at']).execute();
}
