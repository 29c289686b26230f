import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { siteKey, sitesApi } from './sites-api.ts';
import type { Redirect, Site, SiteSpace } from './types.ts';

/** Old addresses of the site and where they lead: a table to add, edit and delete them, and a path tester. */
export function RedirectsTab(props: { organizationId: string; site: Site }) {
  const { organizationId, site } = props;
  const key = siteKey(organizationId, site.id);
  const redirects = useQuery(`${key}redirects`, () => sitesApi.redirects(organizationId, site.id));
  const siteSpaces = useQuery(`${key}site-spaces`, () => sitesApi.siteSpaces(organizationId, site.id));
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const spaces = siteSpaces.data?.items ?? [];
  const titleOf = (redirect: Redirect) => {
    const d = redirect.destination;
    return d.kind === 'site-section' ? `a section (${d.siteSectionId})` : (spaces.find((s) => s.id === d.siteSpaceId)?.title ?? d.siteSpaceId);
  };
  const attempt = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      setEditing(null);
      invalidate(`${key}redirects`);
    } catch (caught) {
      setError((caught as Error).message);
    }
  };
  if (redirects.error) return <ErrorNote error={redirects.error} />;
  return (
    <>
      <section class="panel" aria-labelledby="redirects-title">
        <h2 id="redirects-title">Redirects</h2>
        <p class="meta">A reader who opens an old address of the site is sent (301) to the space it names.</p>
        {redirects.data && redirects.data.items.length === 0 && <p class="empty">No redirects yet.</p>}
        {redirects.data && redirects.data.items.length > 0 && (
          <table class="table">
            <thead><tr><th scope="col">From</th><th scope="col">To</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {redirects.data.items.map((redirect) =>
                editing === redirect.id ? (
                  <tr key={redirect.id}>
                    <td colSpan={3}>
                      <RedirectForm spaces={spaces} initial={redirect} label="Save" onSubmit={(body) => attempt(() => sitesApi.updateRedirect(organizationId, site.id, redirect.id, body))} onCancel={() => setEditing(null)} />
                    </td>
                  </tr>
                ) : (
                  <tr key={redirect.id}>
                    <td><code>{redirect.source}</code></td>
                    <td>{titleOf(redirect)}</td>
                    <td class="actions">
                      <button type="button" class="link-button" onClick={() => setEditing(redirect.id)}>Edit<span class="visually-hidden"> {redirect.source}</span></button>
                      <button type="button" class="link-button" onClick={() => void attempt(() => sitesApi.deleteRedirect(organizationId, site.id, redirect.id))}>Delete<span class="visually-hidden"> {redirect.source}</span></button>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        )}
        {error && <p class="error-note" role="alert">{error}</p>}
        <h3>Add a redirect</h3>
        {spaces.length === 0 ? <p class="empty">Add a space to the site first: a redirect leads to one of its spaces.</p> : <RedirectForm spaces={spaces} label="Add redirect" onSubmit={(body) => attempt(() => sitesApi.createRedirect(organizationId, site.id, body))} />}
      </section>
      <TestPath organizationId={organizationId} site={site} />
    </>
  );
}

function RedirectForm(props: { spaces: SiteSpace[]; initial?: Redirect; label: string; onSubmit: (body: { source: string; destination: { kind: 'site-space'; siteSpaceId: string } }) => Promise<void>; onCancel?: () => void }) {
  const initialSpace = props.initial && props.initial.destination.kind !== 'site-section' ? props.initial.destination.siteSpaceId : (props.spaces[0]?.id ?? '');
  const [source, setSource] = useState(props.initial?.source ?? '');
  const [target, setTarget] = useState(initialSpace);
  const id = props.initial?.id ?? 'new';
  return (
    <form class="inline-form redirect-form" onSubmit={(event) => { event.preventDefault(); void props.onSubmit({ source: source.startsWith('/') ? source : `/${source}`, destination: { kind: 'site-space', siteSpaceId: target } }); }}>
      <label for={`redirect-source-${id}`}>From (a path of the site)</label>
      <input id={`redirect-source-${id}`} name="source" value={source} onInput={(event) => setSource(event.currentTarget.value)} placeholder="/old/page" required />
      <label for={`redirect-target-${id}`}>To</label>
      <select id={`redirect-target-${id}`} name="target" value={target} onChange={(event) => setTarget(event.currentTarget.value)}>
        {props.spaces.map((space) => <option key={space.id} value={space.id}>{space.title}</option>)}
      </select>
      <button type="submit" class="button primary">{props.label}</button>
      {props.onCancel && <button type="button" class="button" onClick={props.onCancel}>Cancel</button>}
    </form>
  );
}

function TestPath(props: { organizationId: string; site: Site }) {
  const [path, setPath] = useState('');
  const [answer, setAnswer] = useState<string | null>(null);
  const test = async (event: Event) => {
    event.preventDefault();
    const source = path.startsWith('/') ? path : `/${path}`;
    try {
      const found = await sitesApi.redirectFor(props.organizationId, props.site.id, source);
      setAnswer(`${source} leads to ${found.target}`);
    } catch (caught) {
      setAnswer((caught as { status?: number }).status === 404 ? `No redirect starts at ${source}: the reader shows the page there, or its "not found" page.` : (caught as Error).message);
    }
  };
  return (
    <section class="panel" aria-labelledby="test-title">
      <h2 id="test-title">Test a path</h2>
      <form class="inline-form redirect-form" onSubmit={test}>
        <label for="test-path">Path</label>
        <input id="test-path" value={path} onInput={(event) => setPath(event.currentTarget.value)} placeholder="/old/page" required />
        <button type="submit" class="button">Test</button>
      </form>
      <p role="status" class="test-answer">{answer}</p>
    </section>
  );
}
