import { useState } from 'preact/hooks';
import { invalidate, prime, useQuery } from '../../api/cache.ts';
import { api } from '../../api/operations.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { CopyField } from '../shared/copy-field.tsx';
import { siteKey, sitesApi } from './sites-api.ts';
import { VisibilityChoice } from './sites-screen.tsx';
import { SiteSpaceList } from './site-space-list.tsx';
import { SectionStructure } from './section-structure.tsx';
import type { Placement } from './placement-form.tsx';
import type { Site, Visibility } from './types.ts';

/** A site at a glance: publish or take offline, who can read it, its addresses, and the spaces it publishes. */
export function OverviewTab(props: { organizationId: string; site: Site }) {
  const { organizationId, site } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [visibility, setVisibility] = useState<Visibility>(site.visibility);

  const run = async (work: () => Promise<Site>) => {
    setBusy(true);
    setError(null);
    try {
      const updated = await work();
      prime(`${siteKey(organizationId, site.id)}site`, updated);
      invalidate(`org:${organizationId}:sites`);
      invalidate(siteKey(organizationId, site.id));
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <section aria-labelledby="publishing-title" class="panel">
        <h2 id="publishing-title">Publishing</h2>
        {site.published ? (
          <>
            <p>This site is published: readers its visibility admits can read it now.</p>
            {site.urls.published && <CopyField id="published-url" label="Published address" value={site.urls.published} />}
            {site.urls.published && <CopyField id="mcp-url" label="MCP server address (paste it into an assistant such as Claude or Cursor)" value={`${site.urls.published}/~gitbook/mcp`} />}
            <button type="button" class="button" disabled={busy} onClick={() => run(() => sitesApi.unpublish(organizationId, site.id))}>Unpublish</button>
          </>
        ) : (
          <>
            <p>This site is not published: only members of the organization can see it, here.</p>
            <button type="button" class="button primary" disabled={busy} onClick={() => run(() => sitesApi.publish(organizationId, site.id))}>Publish</button>
          </>
        )}
      </section>
      <section aria-labelledby="visibility-title" class="panel">
        <h2 id="visibility-title">Visibility</h2>
        <form class="form" onSubmit={(event) => { event.preventDefault(); void run(() => sitesApi.update(organizationId, site.id, { visibility })); }}>
          <VisibilityChoice value={visibility} onChange={setVisibility} name="visibility" />
          <button type="submit" class="button" disabled={busy || visibility === site.visibility}>Save visibility</button>
        </form>
      </section>
      {error && <p class="error-note" role="alert">{error}</p>}
      <section aria-labelledby="spaces-title" class="panel">
        <h2 id="spaces-title">Spaces of this site</h2>
        <SiteSpaces organizationId={organizationId} site={site} />
      </section>
    </>
  );
}

function SiteSpaces(props: { organizationId: string; site: Site }) {
  const { organizationId, site } = props;
  const key = `${siteKey(organizationId, site.id)}site-spaces`;
  const siteSpaces = useQuery(key, () => sitesApi.siteSpaces(organizationId, site.id));
  const spaces = useQuery(`org:${organizationId}:spaces`, () => api.spaces(organizationId));
  const [adding, setAdding] = useState('');
  const [error, setError] = useState<string | null>(null);
  const attempt = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError((caught as Error).message);
    }
    invalidate(siteKey(organizationId, site.id));
  };
  const sections = useQuery(`${siteKey(organizationId, site.id)}sections`, () => sitesApi.sections(organizationId, site.id));
  const [sectionSpace, setSectionSpace] = useState('');
  const [sectionTitle, setSectionTitle] = useState('');
  const templates = useQuery(`${siteKey(organizationId, site.id)}template-conditions`, () => sitesApi.templateConditions(organizationId, site.id));
  const suggestions = templates.data?.items.map((item) => item.condition) ?? [];
  // Errors reach the row's form, which stays open with them.
  const editSiteSpace = async (id: string, placement: Placement) => {
    await sitesApi.updateSiteSpace(organizationId, site.id, id, placement);
    invalidate(siteKey(organizationId, site.id));
  };
  if (siteSpaces.error) return <ErrorNote error={siteSpaces.error} />;
  if (!siteSpaces.data) return <p aria-busy="true">Loading…</p>;
  const items = siteSpaces.data.items;
  const published = new Set(items.map((item) => item.space.id));
  const addable = spaces.data?.items.filter((space) => !published.has(space.id)) ?? [];
  const sectionList = sections.data?.items ?? [];
  return (
    <>
      {sectionList.length > 0 ? (
        <>
          <h3>Sections</h3>
          <SectionStructure organizationId={organizationId} site={site} suggestions={suggestions} />
          {sectionList.map((section) => (
            <div key={section.id} class="section-variants">
              <h4>Variants of {section.title}</h4>
              <SiteSpaceList
                name={`variant-${section.id}`}
                label="a variant"
                items={section.siteSpaces}
                onMove={(id, position) => attempt(() => sitesApi.moveSiteSpace(organizationId, site.id, id, position))}
                onDefault={(id) => attempt(() => sitesApi.update(organizationId, site.id, { defaultSiteSpace: id }))}
                onRemove={(id) => attempt(() => sitesApi.removeSiteSpace(organizationId, site.id, id))}
                onEdit={editSiteSpace}
                suggestions={suggestions}
              />
            </div>
          ))}
        </>
      ) : items.length === 0 ? (
        <p class="empty">This site publishes no space yet: add one below.</p>
      ) : (
        <SiteSpaceList
          items={items}
          onMove={(id, position) => attempt(() => sitesApi.moveSiteSpace(organizationId, site.id, id, position))}
          onDefault={(id) => attempt(() => sitesApi.update(organizationId, site.id, { defaultSiteSpace: id }))}
          onRemove={(id) => attempt(() => sitesApi.removeSiteSpace(organizationId, site.id, id))}
          onEdit={editSiteSpace}
          suggestions={suggestions}
        />
      )}
      {error && <p class="error-note" role="alert">{error}</p>}
      {addable.length > 0 && (
        <form class="inline-form redirect-form" aria-label="Add a section" onSubmit={(event) => { event.preventDefault(); if (sectionSpace) void attempt(() => sitesApi.addSection(organizationId, site.id, sectionSpace, sectionTitle.trim() || 'Section')).then(() => { setSectionSpace(''); setSectionTitle(''); }); }}>
          <label for="section-space">New section from</label>
          <select id="section-space" value={sectionSpace} onChange={(event) => setSectionSpace(event.currentTarget.value)}>
            <option value="">Choose a space…</option>
            {addable.map((space) => <option key={space.id} value={space.id}>{space.title || 'Untitled space'}</option>)}
          </select>
          <label for="section-title">titled</label>
          <input id="section-title" value={sectionTitle} onInput={(event) => setSectionTitle(event.currentTarget.value)} placeholder="API reference" />
          <button type="submit" class="button" disabled={!sectionSpace}>Add section</button>
        </form>
      )}
      {addable.length > 0 && (
        <form class="inline-form copy-row" onSubmit={(event) => { event.preventDefault(); if (adding) void attempt(() => sitesApi.addSpace(organizationId, site.id, adding)).then(() => setAdding('')); }}>
          <label for="add-space">Add a space</label>
          <select id="add-space" value={adding} onChange={(event) => setAdding(event.currentTarget.value)}>
            <option value="">Choose a space…</option>
            {addable.map((space) => <option key={space.id} value={space.id}>{space.title || 'Untitled space'}</option>)}
          </select>
          <button type="submit" class="button" disabled={!adding}>Add</button>
        </form>
      )}
    </>
  );
}
