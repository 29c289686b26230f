import type { HistoryEntry } from './schemas.ts';
import type { HistoryEntryView } from './service.ts';

export function presentHistory(history: { items: HistoryEntryView[]; next?: string }): { items: HistoryEntry[]; next?: { page: string } } {
  const items = history.items.map((entry): HistoryEntry => ({
    object: 'revision-history-entry',
    id: entry.revision.id,
    type: entry.revision.type,
    parents: entry.revision.parents,
    createdAt: entry.revision.createdAt,
    ...(entry.author
      ? { createdBy: { object: 'user' as const, id: entry.author.id, displayName: entry.author.displayName, ...(entry.author.photoUrl ? { photoURL: entry.author.photoUrl } : {}) } }
      : {}),
    ...(entry.mergedFrom ? { mergedFrom: { id: entry.mergedFrom.id, number: entry.mergedFrom.number, ...(entry.mergedFrom.subject ? { subject: entry.mergedFrom.subject } : {}) } } : {}),
    pages: entry.pages,
    ...(entry.morePages > 0 ? { morePages: entry.morePages } : {}),
    otherChanges: entry.otherChanges,
  }));
  return history.next ? { items, next: { page: history.next } } : { items };
}
