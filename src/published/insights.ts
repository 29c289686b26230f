import { createHash } from 'node:crypto';
import type { Context } from '../context.ts';

/**
 * First-party insights of a published site: page views, searches (with how many results they had) and
 * "Was this page helpful?" answers. No cookie is set, no third party is called, and nothing personal is
 * kept: the reader's address and browser are only ever used inside a hash salted with the day (the salt is
 * derived from Quire's key and the date, so a hash cannot be followed from one day to the next, nor
 * reversed without the key). Sessions are the same hash with the hour of the day.
 */

export const INSIGHT_EVENT_TYPES = ['page_view', 'search_open', 'search_type_query', 'search_open_result', 'page_post_feedback', 'page_post_feedback_comment', 'link_click'] as const;
export type InsightEventType = (typeof INSIGHT_EVENT_TYPES)[number];
export const FEEDBACK_RATINGS = ['bad', 'ok', 'good'] as const;

/** One event, as the reader's script or the API's trackEvents sends it, before it is stored. */
export interface InsightEvent {
  type: InsightEventType;
  /** The page's address (an absolute URL); its query string is never kept. */
  url: string;
  siteSection?: string | null;
  siteSpace?: string | null;
  space?: string | null;
  page?: string | null;
  query?: string | null;
  resultCount?: number | null;
  rating?: (typeof FEEDBACK_RATINGS)[number] | null;
  /** When it happened; now when not given (never in the future). */
  at?: Date;
}

/** Who sent an event, only to be hashed: never stored. */
export interface InsightSender {
  address: string;
  userAgent: string;
}

function hash(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 22);
}

/** The day's salt: the same in every process of one Quire, different every day. */
function daySalt(ctx: Pick<Context, 'urls'>, day: string): string {
  return ctx.urls.sign(`quire:insights:${day}`);
}

/** The query string and fragment are left out: they may carry share keys or tokens. */
function cleanUrl(url: string): string {
  const cut = url.search(/[?#]/);
  return (cut === -1 ? url : url.slice(0, cut)).slice(0, 2048);
}

const clip = (text: string | null | undefined, max: number) => (text == null ? null : text.slice(0, max));

export async function recordInsightEvents(ctx: Pick<Context, 'db' | 'clock' | 'ids' | 'urls'>, siteId: string, sender: InsightSender, events: InsightEvent[]): Promise<void> {
  if (events.length === 0) return;
  const now = ctx.clock.now();
  const rows = events.map((event) => {
    const at = event.at && event.at.getTime() <= now.getTime() ? event.at : now;
    const iso = at.toISOString();
    const day = iso.slice(0, 10);
    const salt = daySalt(ctx, day);
    return {
      id: ctx.ids.next(),
      site_id: siteId,
      type: event.type,
      at: iso,
      url: cleanUrl(event.url),
      site_section: clip(event.siteSection, 64),
      site_space: clip(event.siteSpace, 64),
      space: clip(event.space, 64),
      page: clip(event.page, 64),
      query: clip(event.query?.trim(), 200),
      result_count: typeof event.resultCount === 'number' && Number.isFinite(event.resultCount) ? Math.max(0, Math.floor(event.resultCount)) : null,
      rating: event.rating ?? null,
      visitor: hash(salt, sender.address, sender.userAgent),
      session: hash(salt, sender.address, sender.userAgent, iso.slice(11, 13)),
    };
  });
  for (let i = 0; i < rows.length; i += 200) await ctx.db.insertInto('site_insight_events').values(rows.slice(i, i + 200)).execute();
}
