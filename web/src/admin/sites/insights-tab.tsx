import { useEffect, useRef, useState } from 'preact/hooks';
import { useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { siteKey, sitesApi } from './sites-api.ts';
import type { Site } from './types.ts';

/** The three kinds of event the chart draws, with their colours (readable on both themes). */
const SERIES = [
  { type: 'page_view', label: 'Page views', stroke: '#2f6fdb' },
  { type: 'search_type_query', label: 'Searches', stroke: '#c2410c' },
  { type: 'page_post_feedback', label: 'Feedback', stroke: '#15803d' },
] as const;

type Columns = Array<{ column: string; values: unknown[] }>;

function column(columns: Columns, name: string): unknown[] {
  return columns.find((c) => c.column === name)?.values ?? [];
}

interface Daily {
  days: string[];
  counts: Record<string, number[]>;
}

/** The events of the last 30 days by day and kind (aggregateSiteEvents), every day present, zeros included. */
function daily(columns: Columns, now: Date): Daily {
  const days: string[] = [];
  for (let i = 29; i >= 0; i--) days.push(new Date(now.getTime() - i * 86_400_000).toISOString().slice(0, 10));
  const counts: Record<string, number[]> = Object.fromEntries(SERIES.map((s) => [s.type, days.map(() => 0)]));
  const when = column(columns, 'datetime');
  const types = column(columns, 'eventType');
  const values = column(columns, 'eventsCount');
  when.forEach((at, i) => {
    const day = String(at).slice(0, 10);
    const index = days.indexOf(day);
    const series = counts[String(types[i])];
    if (index >= 0 && series) series[index] += Number(values[i]) || 0;
  });
  return { days, counts };
}

/**
 * Insights: page views, searches and feedback over the last 30 days as a uPlot chart (with the same
 * numbers in a table for screen readers), the searches that found nothing, and the most read pages.
 */
export function InsightsTab(props: { organizationId: string; site: Site }) {
  const { organizationId, site } = props;
  const key = siteKey(organizationId, site.id);
  const range = 'last30Days';
  const overTime = useQuery(`${key}insights:daily`, () =>
    sitesApi.aggregate(organizationId, site.id, {
      range,
      select: [{ column: 'datetime' }, { column: 'eventType' }, { column: 'eventsCount' }],
      groupBy: [{ column: 'datetime', interval: 'day' }, { column: 'eventType' }],
      where: [{ column: 'eventType', values: SERIES.map((s) => s.type) }],
    }),
  );
  const empty = useQuery(`${key}insights:empty-searches`, () =>
    sitesApi.aggregate(organizationId, site.id, {
      range,
      select: [{ column: 'eventSearchQuery' }, { column: 'eventsCount' }],
      groupBy: [{ column: 'eventSearchQuery' }],
      where: [{ column: 'eventType', values: ['search_type_query'] }, { column: 'eventSearchResultsCount', values: [0] }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      limit: 20,
    }),
  );
  const pages = useQuery(`${key}insights:pages`, () =>
    sitesApi.aggregate(organizationId, site.id, {
      range,
      select: [{ column: 'url' }, { column: 'eventsCount' }],
      groupBy: [{ column: 'url' }],
      where: [{ column: 'eventType', values: ['page_view'] }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      limit: 20,
    }),
  );
  const data = overTime.data ? daily(overTime.data.columns, new Date()) : null;
  return (
    <>
      <section class="panel" aria-labelledby="over-time-title">
        <h2 id="over-time-title">The last 30 days</h2>
        {overTime.error && <ErrorNote error={overTime.error} />}
        {data && <Chart data={data} />}
        {data && (
          <details class="chart-table">
            <summary>The numbers as a table</summary>
            <table class="table">
              <thead><tr><th scope="col">Day</th>{SERIES.map((s) => <th key={s.type} scope="col">{s.label}</th>)}</tr></thead>
              <tbody>{data.days.map((day, i) => <tr key={day}><th scope="row">{day}</th>{SERIES.map((s) => <td key={s.type}>{data.counts[s.type][i]}</td>)}</tr>)}</tbody>
            </table>
          </details>
        )}
      </section>
      <section class="panel" aria-labelledby="empty-title">
        <h2 id="empty-title">Searches with no result</h2>
        {empty.error && <ErrorNote error={empty.error} />}
        <PairTable columns={empty.data?.columns} first="eventSearchQuery" firstLabel="Search" none="No search came back empty." />
      </section>
      <section class="panel" aria-labelledby="pages-title">
        <h2 id="pages-title">Most read pages</h2>
        {pages.error && <ErrorNote error={pages.error} />}
        <PairTable columns={pages.data?.columns} first="url" firstLabel="Page" none="No page views yet." />
      </section>
    </>
  );
}

function PairTable(props: { columns?: Columns; first: string; firstLabel: string; none: string }) {
  if (!props.columns) return <p aria-busy="true">Loading…</p>;
  const names = column(props.columns, props.first);
  const counts = column(props.columns, 'eventsCount');
  if (names.length === 0) return <p class="empty">{props.none}</p>;
  return (
    <table class="table">
      <thead><tr><th scope="col">{props.firstLabel}</th><th scope="col">Count</th></tr></thead>
      <tbody>{names.map((name, i) => <tr key={String(name)}><td>{String(name)}</td><td>{String(counts[i])}</td></tr>)}</tbody>
    </table>
  );
}

/** The chart, drawn by uPlot (loaded with this screen only). */
function Chart(props: { data: Daily }) {
  const host = useRef<HTMLDivElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let chart: { destroy(): void } | null = null;
    let cancelled = false;
    Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(
      ([{ default: UPlot }]) => {
        if (cancelled || !host.current) return;
        const x = props.data.days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
        chart = new UPlot(
          {
            width: Math.max(320, host.current.clientWidth),
            height: 260,
            series: [{}, ...SERIES.map((s) => ({ label: s.label, stroke: s.stroke, width: 2 }))],
            axes: [{ stroke: getComputedStyle(host.current).color }, { stroke: getComputedStyle(host.current).color }],
          },
          [x, ...SERIES.map((s) => props.data.counts[s.type])],
          host.current,
        );
      },
      (caught: Error) => setProblem(`The chart could not be drawn: ${caught.message}`),
    );
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [props.data]);
  return (
    <>
      <div ref={host} class="chart" role="img" aria-label={`Chart of ${SERIES.map((s) => s.label.toLowerCase()).join(', ')} per day; the same numbers are in the table below.`} />
      {problem && <p class="error-note" role="alert">{problem}</p>}
    </>
  );
}
