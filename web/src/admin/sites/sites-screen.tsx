import { lazy, Suspense } from 'preact/compat';
import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { api } from '../../api/operations.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { Link } from '../../app/link.tsx';
import { navigate, paths } from '../../app/router.ts';
import { sitesApi } from './sites-api.ts';
import type { Visibility } from './types.ts';
import { VISIBILITIES } from './visibility.ts';
import './sites.css';

// Each screen of a site loads on demand: the list needs none of them.
const TABS = {
  overview: { label: 'Overview', screen: lazy(() => import('./overview-tab.tsx').then((m) => ({ default: m.OverviewTab }))) },
  customize: { label: 'Customization', screen: lazy(() => import('./customize-tab.tsx').then((m) => ({ default: m.CustomizeTab }))) },
  redirects: { label: 'Redirects', screen: lazy(() => import('./redirects-tab.tsx').then((m) => ({ default: m.RedirectsTab }))) },
  'share-links': { label: 'Share links', screen: lazy(() => import('./share-links-tab.tsx').then((m) => ({ default: m.ShareLinksTab }))) },
  visitors: { label: 'Visitors', screen: lazy(() => import('./visitors-tab.tsx').then((m) => ({ default: m.VisitorsTab }))) },
  insights: { label: 'Insights', screen: lazy(() => import('./insights-tab.tsx').then((m) => ({ default: m.InsightsTab }))) },
  mcp: { label: 'MCP servers', screen: lazy(() => import('./mcp-servers.tsx').then((m) => ({ default: m.McpServersTab }))) },
} as const;
type Tab = keyof typeof TABS;

/** `/o/{org}/sites`: the organization's sites and a form for a new one; `/o/{org}/sites/{site}/{tab}`: one site. */
export function SitesScreen(props: { organizationId: string; siteId?: string; tab?: string }) {
  const { organizationId } = props;
  const sites = useQuery(`org:${organizationId}:sites`, () => sitesApi.list(organizationId));
  return (
    <div class="layout">
      <nav class="sidebar" aria-label="Sites">
        <h2 class="sidebar-title">Sites</h2>
        {sites.error && <ErrorNote error={sites.error} />}
        {sites.data && sites.data.items.length === 0 && <p class="empty">No sites yet: <strong>Create site</strong> publishes one or more spaces on the web.</p>}
        <ul class="nav-list">
          {sites.data?.items.map((site) => (
            <li key={site.id}>
              <Link href={paths.sites(organizationId, site.id)} aria-current={site.id === props.siteId ? 'page' : undefined}>{site.title || 'Untitled site'}</Link>
            </li>
          ))}
        </ul>
        <p><Link href={paths.sites(organizationId)} class="button">New site</Link></p>
      </nav>
      <main id="main" class="screen wide">
        {props.siteId ? <SiteScreen organizationId={organizationId} siteId={props.siteId} tab={(props.tab && props.tab in TABS ? props.tab : 'overview') as Tab} /> : <NewSite organizationId={organizationId} />}
      </main>
    </div>
  );
}

function SiteScreen(props: { organizationId: string; siteId: string; tab: Tab }) {
  const { organizationId, siteId } = props;
  const site = useQuery(`org:${organizationId}:site:${siteId}:site`, () => sitesApi.get(organizationId, siteId));
  if (site.error) return <ErrorNote error={site.error} />;
  if (!site.data) return <p aria-busy="true">Loading…</p>;
  const Screen = TABS[props.tab].screen;
  return (
    <>
      <p class="crumbs"><Link href={paths.sites(organizationId)}>Sites</Link></p>
      <h1>{site.data.title || 'Untitled site'} <span class={`badge ${site.data.published ? 'badge-merged' : ''}`}>{site.data.published ? 'Published' : 'Not published'}</span></h1>
      <nav aria-label="Site settings" class="tabs">
        {(Object.keys(TABS) as Tab[]).map((tab) => (
          <Link key={tab} href={paths.sites(organizationId, siteId, tab)} aria-current={tab === props.tab ? 'page' : undefined}>{TABS[tab].label}</Link>
        ))}
      </nav>
      <Suspense fallback={<p aria-busy="true">Loading…</p>}>
        <Screen organizationId={organizationId} site={site.data} />
      </Suspense>
    </>
  );
}

function NewSite(props: { organizationId: string }) {
  const { organizationId } = props;
  const spaces = useQuery(`org:${organizationId}:spaces`, () => api.spaces(organizationId));
  const [title, setTitle] = useState('');
  const [visibility, setVisibility] = useState<Visibility>('public');
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const site = await sitesApi.create(organizationId, { title: title.trim() || 'Untitled site', visibility, ...(chosen.length ? { spaces: chosen } : {}) });
      invalidate(`org:${organizationId}:sites`);
      navigate(paths.sites(organizationId, site.id));
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h1>New site</h1>
      <p class="lead">A site publishes one or more spaces as documentation readers browse. It is created unpublished: publish it when it is ready.</p>
      <form class="panel form" onSubmit={submit} aria-label="New site">
        <label>
          Title
          <input name="title" value={title} onInput={(event) => setTitle(event.currentTarget.value)} placeholder="Acme Documentation" maxLength={100} required />
        </label>
        <fieldset>
          <legend>Spaces to publish (the first is the default)</legend>
          {spaces.error && <ErrorNote error={spaces.error} />}
          {spaces.data?.items.length === 0 && <p class="empty">No spaces yet: create one on the home screen first, or create the site empty.</p>}
          {spaces.data?.items.map((space) => (
            <label key={space.id} class="choice">
              <input type="checkbox" name="spaces" value={space.id} checked={chosen.includes(space.id)} onChange={(event) => setChosen(event.currentTarget.checked ? [...chosen, space.id] : chosen.filter((id) => id !== space.id))} />
              {space.title || 'Untitled space'}
            </label>
          ))}
        </fieldset>
        <VisibilityChoice value={visibility} onChange={setVisibility} name="new-visibility" />
        {error && <p class="error-note" role="alert">{error}</p>}
        <button type="submit" class="button primary" disabled={busy}>{busy ? 'Creating…' : 'Create site'}</button>
      </form>
    </>
  );
}

/** The four audiences a site can have, each with what it means in one sentence. */
export function VisibilityChoice(props: { value: Visibility; onChange: (value: Visibility) => void; name: string; disabled?: boolean }) {
  return (
    <fieldset>
      <legend>Who can read it</legend>
      {VISIBILITIES.map((option) => (
        <label key={option.value} class="choice choice-described">
          <input type="radio" name={props.name} value={option.value} checked={props.value === option.value} disabled={props.disabled} onChange={() => props.onChange(option.value)} aria-describedby={`${props.name}-${option.value}`} />
          <span>
            <strong>{option.label}</strong>
            <span id={`${props.name}-${option.value}`} class="meta"> {option.sentence}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
