import { sql, type Expression, type SqlBool } from 'kysely';
import type { Context } from '../../context.ts';
import { BadRequest } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { INSIGHT_EVENT_TYPES, recordInsightEvents, type InsightEvent, type InsightEventType } from '../../published/insights.ts';
import { siteAccess } from '../../access/sites.ts';

/**
 * The insights API of a site: trackEventsInSiteById stores events (members and integrations with a token;
 * readers' browsers send theirs to the site itself, see src/published/handler.ts), aggregateSiteEvents
 * counts them by the columns Quire keeps, listSiteVisitorSegments answers one segment (Quire keeps no
 * claims nor profiles of visitors). Columns about visitors' devices, places or referrers are never
 * recorded: asking for them is refused with 400.
 */

type Json = Record<string, unknown>;

export interface TrackedEvent {
  type: string;
  location: { url: string; siteSection?: string | null; siteSpace?: string | null; space?: string | null; page?: string | null };
  session?: { ip?: string; userAgent?: string };
  timestamp?: string;
  query?: string;
  feedback?: { rating?: string };
  /** Quire's own: how many results a search had. */
  resultsCount?: number;
}

export async function trackEvents(ctx: Context, organizationId: string, siteId: string, events: TrackedEvent[], sender: { address: string; userAgent: string }): Promise<void> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', actor);
  const kept: InsightEvent[] = [];
  for (const event of events) {
    if (!(INSIGHT_EVENT_TYPES as readonly string[]).includes(event.type)) continue;
    const rating = event.feedback?.rating;
    kept.push({
      type: event.type as InsightEventType,
      url: event.location.url,
      siteSection: event.location.siteSection,
      siteSpace: event.location.siteSpace,
      space: event.location.space,
      page: event.location.page,
      query: event.query ?? null,
      resultCount: event.resultsCount ?? null,
      rating: rating === 'bad' || rating === 'ok' || rating === 'good' ? rating : null,
      at: event.timestamp ? new Date(event.timestamp) : undefined,
    });
  }
  await recordInsightEvents(ctx, site.id, sender, kept);
}

const RANGE_DAYS: Record<string, number> = { lastYear: 365, last3Months: 92, last30Days: 30, last7Days: 7, last24Hours: 1 };

/** The stored column of each groupable column of the client's query. */
const GROUPS: Record<string, string> = {
  url: 'url',
  eventType: 'type',
  siteSection: 'site_section',
  siteSpace: 'site_space',
  siteShareKey: '',
  eventSearchQuery: 'query',
  eventPageFeedbackRating: 'rating',
};
/** Columns that are counts. */
const COUNTS = new Set(['eventsCount', 'sessionsCount', 'visitorsCount', 'pageFeedbackRating']);

interface Column {
  column: string;
  interval?: string;
}

function unsupported(column: string): BadRequest {
  return new BadRequest(
    `Quire's insights do not keep "${column}": it counts by datetime, url, eventType, siteSection, siteSpace, page, eventSearchQuery and eventPageFeedbackRating, and filters on those and eventSearchResultsCount.`,
  );
}

function datetimeExpr(interval: string | undefined) {
  const length = interval === 'hour' ? 13 : interval === 'month' ? 7 : 10;
  return sql<string>`substr(at, 1, ${sql.lit(length)})`;
}

function datetimeValue(bucket: string): string {
  if (bucket.length === 13) return `${bucket}:00:00.000Z`;
  if (bucket.length === 7) return `${bucket}-01T00:00:00.000Z`;
  return `${bucket}T00:00:00.000Z`;
}

function range(ctx: Context, value: unknown): { from: string; to: string } {
  const now = ctx.clock.now();
  if (typeof value === 'string') {
    const days = RANGE_DAYS[value];
    if (!days) throw new BadRequest(`The range "${value}" is not one of ${Object.keys(RANGE_DAYS).join(', ')}.`);
    return { from: new Date(now.getTime() - days * 86_400_000).toISOString(), to: now.toISOString() };
  }
  const custom = value as { from?: string; to?: string };
  const from = new Date(String(custom?.from));
  const to = new Date(String(custom?.to));
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw new BadRequest('The range needs "from" and "to" timestamps, or one of the presets (last7Days…).');
  return { from: from.toISOString(), to: to.toISOString() };
}

export interface AggregateQuery {
  select?: Column[];
  where?: Array<Column & { values: unknown[]; operator?: string }>;
  groupBy?: Column[];
  order?: { by: Column; direction: 'asc' | 'desc' };
  range: unknown;
  limit?: number;
}

export async function aggregateEvents(ctx: Context, organizationId: string, siteId: string, query: AggregateQuery): Promise<{ columns: Json[] }> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', actor);
  const { from, to } = range(ctx, query.range);
  const groups = query.groupBy ?? [];
  const selects = query.select ?? [{ column: 'eventsCount' }];
  for (const c of groups) if (c.column !== 'datetime' && c.column !== 'page' && !GROUPS[c.column]) throw unsupported(c.column);
  for (const c of selects) if (!COUNTS.has(c.column) && c.column !== 'datetime' && c.column !== 'page' && !GROUPS[c.column]) throw unsupported(c.column);

  const conditions: Array<Expression<SqlBool>> = [sql<SqlBool>`site_id = ${site.id}`, sql<SqlBool>`at >= ${from}`, sql<SqlBool>`at <= ${to}`];
  for (const filter of query.where ?? []) conditions.push(whereOf(filter));
  const groupExprs = groups.map((c) => (c.column === 'datetime' ? datetimeExpr(c.interval) : c.column === 'page' ? null : sql.ref(GROUPS[c.column])));
  const keys: Array<ReturnType<typeof sql.raw> | ReturnType<typeof sql.ref>> = [];
  groups.forEach((c, i) => {
    if (c.column === 'page') keys.push(sql.ref('space'), sql.ref('page'));
    else keys.push(groupExprs[i] as ReturnType<typeof sql.ref>);
  });
  // Values a grouped column cannot hold as the client reads it (no query, no rating) are left out.
  for (const c of groups) if (c.column === 'eventSearchQuery' || c.column === 'eventPageFeedbackRating') conditions.push(sql<SqlBool>`${sql.ref(GROUPS[c.column])} is not null`);

  const selected = [
    ...keys.map((k, i) => sql`${k}`.as(`k${i}`)),
    sql<number>`count(*)`.as('events'),
    sql<number>`count(distinct session)`.as('sessions'),
    sql<number>`count(distinct visitor)`.as('visitors'),
    sql<number>`sum(case when rating = 'good' then 1 else 0 end)`.as('good'),
    sql<number>`sum(case when rating = 'ok' then 1 else 0 end)`.as('ok'),
    sql<number>`sum(case when rating = 'bad' then 1 else 0 end)`.as('bad'),
  ];
  const orderBy = query.order ? orderExpr(query.order.by, groups, keys.length) : null;
  let builder = ctx.db
    .selectFrom('site_insight_events')
    .select(selected)
    .where(sql<SqlBool>`${sql.join(conditions, sql` and `)}`);
  if (keys.length) builder = builder.groupBy(keys.map((k) => sql`${k}`));
  if (orderBy) builder = builder.orderBy(orderBy, query.order!.direction);
  else if (keys.length) builder = builder.orderBy(sql`count(*)`, 'desc');
  const rows = (await builder.limit(Math.min(query.limit ?? 1000, 1000)).execute()) as Array<Record<string, unknown>>;

  const columns: Json[] = [];
  const wanted = [...groups, ...selects.filter((s) => !groups.some((g) => g.column === s.column))];
  for (const c of wanted) {
    const gi = groups.findIndex((g) => g.column === c.column);
    const keyIndex = gi < 0 ? -1 : groups.slice(0, gi).reduce((n, g) => n + (g.column === 'page' ? 2 : 1), 0);
    columns.push({ column: c.column, values: rows.map((row) => valueOf(c, row, keyIndex)) });
  }
  return { columns };
}

function valueOf(c: Column, row: Record<string, unknown>, keyIndex: number): unknown {
  switch (c.column) {
    case 'eventsCount':
      return Number(row.events);
    case 'sessionsCount':
      return Number(row.sessions);
    case 'visitorsCount':
      return Number(row.visitors);
    case 'pageFeedbackRating':
      return { good: Number(row.good ?? 0), ok: Number(row.ok ?? 0), bad: Number(row.bad ?? 0) };
    case 'datetime':
      return datetimeValue(String(row[`k${keyIndex}`]));
    case 'page': {
      const space = row[`k${keyIndex}`];
      const page = row[`k${keyIndex + 1}`];
      return space ? { space: String(space), page: page == null ? null : String(page) } : null;
    }
    default: {
      const value = row[`k${keyIndex}`];
      return value == null ? null : String(value);
    }
  }
}

function orderExpr(by: Column, groups: Column[], _n: number) {
  if (by.column === 'eventsCount') return sql`count(*)`;
  if (by.column === 'visitorsCount') return sql`count(distinct visitor)`;
  if (by.column === 'sessionsCount') return sql`count(distinct session)`;
  if (by.column === 'datetime') return datetimeExpr(groups.find((g) => g.column === 'datetime')?.interval ?? by.interval);
  if (GROUPS[by.column]) return sql.ref(GROUPS[by.column]);
  throw unsupported(by.column);
}

function whereOf(filter: Column & { values: unknown[]; operator?: string }): Expression<SqlBool> {
  const values = Array.isArray(filter.values) ? filter.values : [];
  const op = filter.operator ?? 'in';
  let column;
  if (filter.column === 'eventSearchResultsCount') column = sql.ref('result_count');
  else if (filter.column === 'datetime') column = sql.ref('at');
  else if (filter.column === 'page') {
    const pages = values.filter((v): v is { page: string; space: string } => typeof v === 'object' && v !== null).map((v) => sql`(space = ${v.space} and page = ${v.page})`);
    return pages.length ? sql<SqlBool>`(${sql.join(pages, sql` or `)})` : sql<SqlBool>`1 = 0`;
  } else if (GROUPS[filter.column]) column = sql.ref(GROUPS[filter.column]);
  else throw unsupported(filter.column);
  const plain = values.filter((v) => typeof v === 'string' || typeof v === 'number') as Array<string | number>;
  if (op === 'in' || op === 'notIn') {
    if (plain.length === 0) return op === 'in' ? sql<SqlBool>`1 = 0` : sql<SqlBool>`1 = 1`;
    return sql<SqlBool>`${column} ${sql.raw(op === 'in' ? 'in' : 'not in')} (${sql.join(plain)})`;
  }
  const ops: Record<string, string> = { greaterThan: '>', greaterThanOrEqual: '>=', lessThan: '<', lessThanOrEqual: '<=' };
  if (!ops[op] || plain.length !== 1) throw new BadRequest(`The operator "${op}" needs exactly one value.`);
  return sql<SqlBool>`${column} ${sql.raw(ops[op])} ${plain[0]}`;
}

/** Quire keeps no visitor claims or profiles: one segment, every visitor of the last 30 days. */
export interface VisitorSegment {
  title: string;
  claims: object;
  events: number;
  visitors: number;
  sessions: number;
}

export async function visitorSegments(ctx: Context, organizationId: string, siteId: string): Promise<VisitorSegment[]> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', actor);
  const from = new Date(ctx.clock.now().getTime() - 30 * 86_400_000).toISOString();
  const row = await ctx.db
    .selectFrom('site_insight_events')
    .select([sql<number>`count(*)`.as('events'), sql<number>`count(distinct visitor)`.as('visitors'), sql<number>`count(distinct session)`.as('sessions')])
    .where('site_id', '=', site.id)
    .where('at', '>=', from)
    .executeTakeFirstOrThrow();
  return [{ title: 'All visitors', claims: {}, events: Number(row.events), visitors: Number(row.visitors), sessions: Number(row.sessions) }];
}
