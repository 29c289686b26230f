import { useState } from 'preact/hooks';
import { useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { call, url } from './api.ts';
import { useMembers } from './members.tsx';
import { when } from './ui.tsx';

interface AuditEntry {
  id: string;
  createdAt: string;
  actor: { userId: string | null; tokenId: string | null };
  operation: string;
  method: string;
  route: string;
  objects: Record<string, string>;
  outcome: 'succeeded' | 'refused' | 'failed';
  status: number | null;
  source: { ip: string | null; userAgent: string | null };
}

interface Filters {
  userId: string;
  operation: string;
  outcome: string;
  objectId: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { userId: '', operation: '', outcome: '', objectId: '', from: '', to: '' };

/** A date field's value (a local day) as the instant the API filters on: the start of that day, or the end of it. */
function instant(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (end) date.setDate(date.getDate() + 1);
  return date.toISOString();
}

function query(filters: Filters): Record<string, string | undefined> {
  return {
    userId: filters.userId || undefined,
    operation: filters.operation.trim() || undefined,
    outcome: filters.outcome || undefined,
    objectId: filters.objectId.trim() || undefined,
    from: instant(filters.from, false),
    to: instant(filters.to, true),
  };
}

/** Who did what, when, from where: filtered, a page at a time, and exported as JSON lines with the same filters. */
export function AuditLogSection(props: { organizationId: string }) {
  const members = useMembers(props.organizationId);
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [pages, setPages] = useState<string[]>([]);
  const page = pages[pages.length - 1];
  const key = `admin:${props.organizationId}:audit:${JSON.stringify(filters)}:${page ?? ''}`;
  const entries = useQuery(key, () =>
    call<{ items: AuditEntry[]; next?: { page: string } }>('listAuditLog', { organizationId: props.organizationId }, undefined, { ...query(filters), limit: '50', page }),
  );
  const names = new Map((members.data ?? []).map((member) => [member.user.id, member.user.displayName]));
  const set = (name: keyof Filters) => (event: Event) => setDraft({ ...draft, [name]: (event.currentTarget as HTMLInputElement).value });
  const apply = (event: Event) => {
    event.preventDefault();
    setFilters(draft);
    setPages([]);
  };
  return (
    <>
      <form class="row" onSubmit={apply} aria-label="Filters">
        <label>
          Person
          <select value={draft.userId} onChange={set('userId')}>
            <option value="">Anyone</option>
            {(members.data ?? []).map((member) => <option key={member.user.id} value={member.user.id}>{member.user.displayName}</option>)}
          </select>
        </label>
        <label>
          Operation
          <input value={draft.operation} onInput={set('operation')} placeholder="updateMember…" />
        </label>
        <label>
          Outcome
          <select value={draft.outcome} onChange={set('outcome')}>
            <option value="">Any</option>
            <option value="succeeded">Succeeded</option>
            <option value="refused">Refused</option>
            <option value="failed">Failed</option>
          </select>
        </label>
        <label>
          Object id
          <input value={draft.objectId} onInput={set('objectId')} />
        </label>
        <label>
          From
          <input type="date" value={draft.from} onInput={set('from')} />
        </label>
        <label>
          To
          <input type="date" value={draft.to} onInput={set('to')} />
        </label>
        <button type="submit" class="button primary">Apply</button>
        <a class="button" href={url('exportAuditLog', { organizationId: props.organizationId }, query(filters))} download>Export (JSON lines)</a>
      </form>
      {entries.error && <ErrorNote error={entries.error} />}
      {entries.data && entries.data.items.length === 0 && <p class="empty">No entry matches.</p>}
      {entries.data && entries.data.items.length > 0 && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Audit log entries">
          <table class="data-table">
            <caption class="visually-hidden">Audit log entries, newest first</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Operation</th><th scope="col">Outcome</th><th scope="col">Objects</th><th scope="col">From</th></tr></thead>
            <tbody>
              {entries.data.items.map((entry) => (
                <tr key={entry.id}>
                  <td>{when(entry.createdAt)}</td>
                  <td>{entry.actor.userId ? (names.get(entry.actor.userId) ?? entry.actor.userId) : '—'}{entry.actor.tokenId ? <span class="meta"> (API token)</span> : null}</td>
                  <td><code>{entry.operation}</code><br /><span class="meta">{entry.method} {entry.route}</span></td>
                  <td class={`status-${entry.outcome}`}>{entry.outcome}{entry.status ? ` (${entry.status})` : ''}</td>
                  <td>{Object.entries(entry.objects).map(([name, id]) => <div key={name} class="meta">{name}: {id}</div>)}</td>
                  <td class="meta">{entry.source.ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Pages of the audit log">
        <button type="button" class="button" disabled={pages.length === 0} onClick={() => setPages(pages.slice(0, -1))}>Newer</button>
        <span class="meta">Page {pages.length + 1}</span>
        <button type="button" class="button" disabled={!entries.data?.next} onClick={() => entries.data?.next && setPages([...pages, entries.data.next.page])}>Older</button>
      </nav>
    </>
  );
}
