import type { Kysely } from 'kysely';

/**
 * Sharing: a role on a space or a collection given to a user or a team of the space's organization. It
 * raises what they may do there (and, on a collection, on everything it holds); it never lowers what
 * their organization role already gives.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('content_permissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    /** 'space' or 'collection'. */
    .addColumn('resource_kind', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    /** 'user' or 'team'. */
    .addColumn('subject_kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    /** A member role: admin, create, review, edit, comment, read. */
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('content_permissions_grant', ['resource_kind', 'resource_id', 'subject_kind', 'subject_id'])
    .execute();
  await db.schema.createIndex('content_permissions_subject').on('content_permissions').columns(['organization_id', 'subject_kind', 'subject_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('content_permissions').execute();
}
