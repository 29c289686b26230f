/**
 * Table types for Kysely. Conventions that hold on both SQLite and PostgreSQL:
 * timestamps are ISO-8601 UTC strings (`Date#toISOString`, fixed width, so they sort as text);
 * booleans are integers 0/1; structured values are JSON text. See docs/decisions/0002-portable-columns.md.
 */
export type Flag = 0 | 1;
