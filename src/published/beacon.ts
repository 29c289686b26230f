import type { Context } from '../context.ts';
import { FEEDBACK_RATINGS, recordInsightEvents, type InsightEvent, type InsightSender } from './insights.ts';
import type { SiteView } from './model.ts';

/**
 * The reader's own insights endpoint (`POST {site}/~insights`), which reader.js calls: a page view, a
 * search with its number of results, a feedback answer. What arrives is checked against the reader's view
 * of the site (an unknown site space is dropped) and stored without anything personal. Anything malformed
 * is ignored: a beacon never gets an error a reader could see.
 */

const TYPES = new Set(['page_view', 'search_type_query', 'search_open_result', 'page_post_feedback']);

function text(value: unknown, max: number): string | null {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, max) : null;
}

export async function recordBeacon(ctx: Pick<Context, 'db' | 'clock' | 'ids' | 'urls'>, view: SiteView, body: unknown, sender: InsightSender): Promise<void> {
  if (!body || typeof body !== 'object') return;
  const b = body as Record<string, unknown>;
  const type = text(b.type, 40);
  if (!type || !TYPES.has(type)) return;
  const variant = view.variants.find((v) => v.id === b.siteSpace) ?? null;
  const path = text(b.path, 1024);
  const url = `${view.origin}${path && path.startsWith(view.root || '/') ? path : view.root || '/'}`;
  const rating = FEEDBACK_RATINGS.find((r) => r === b.rating) ?? null;
  if (type === 'page_post_feedback' && !rating) return;
  const event: InsightEvent = {
    type: type as InsightEvent['type'],
    url,
    siteSection: variant?.section?.id ?? null,
    siteSpace: variant?.id ?? null,
    space: variant?.spaceId ?? null,
    page: variant ? text(b.page, 64) : null,
    query: type.startsWith('search') ? text(b.query, 200) : null,
    resultCount: typeof b.results === 'number' ? b.results : null,
    rating,
  };
  await recordInsightEvents(ctx, view.siteId, sender, [event]);
}
