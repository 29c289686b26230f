/** How long deleted spaces and collections stay in the trash, restorable, before they are purged for good. */
export const TRASH_RETENTION_DAYS = 7;
export const TRASH_RETENTION_MS = TRASH_RETENTION_DAYS * 24 * 60 * 60 * 1000;

/** The moment the trash retention of something deleted at `deletedAt` ends. */
export function retentionEnd(deletedAt: string): Date {
  return new Date(new Date(deletedAt).getTime() + TRASH_RETENTION_MS);
}
