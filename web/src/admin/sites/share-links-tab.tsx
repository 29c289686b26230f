import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { CopyField } from '../shared/copy-field.tsx';
import { siteKey, sitesApi } from './sites-api.ts';
import type { Site } from './types.ts';

/** Share links: each opens the site to whoever holds it (when its visibility is "share links"); revoking shuts it. */
export function ShareLinksTab(props: { organizationId: string; site: Site }) {
  const { organizationId, site } = props;
  const key = `${siteKey(organizationId, site.id)}share-links`;
  const links = useQuery(key, () => sitesApi.shareLinks(organizationId, site.id));
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const attempt = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      invalidate(key);
    } catch (caught) {
      setError((caught as Error).message);
    }
  };
  return (
    <section class="panel" aria-labelledby="share-title">
      <h2 id="share-title">Share links</h2>
      {site.visibility !== 'share-link' && <p class="notice">This site's visibility is not "share links": its links work only once it is.</p>}
      {!site.published && <p class="notice">This site is not published: its links open it once it is.</p>}
      {links.error && <ErrorNote error={links.error} />}
      {links.data?.items.length === 0 && <p class="empty">No share links yet.</p>}
      <ul class="share-list">
        {links.data?.items.map((link) => (
          <li key={link.id} class="card">
            <strong>{link.name || 'Unnamed link'}</strong>
            {link.urls.published ? <CopyField id={`share-${link.id}`} label={`Address of ${link.name || 'this link'}`} value={link.urls.published} /> : <span class="meta">Publish the site to get its address.</span>}
            <button type="button" class="button" onClick={() => void attempt(() => sitesApi.revokeShareLink(organizationId, site.id, link.id))}>Revoke<span class="visually-hidden"> {link.name}</span></button>
          </li>
        ))}
      </ul>
      {error && <p class="error-note" role="alert">{error}</p>}
      <form class="inline-form redirect-form" onSubmit={(event) => { event.preventDefault(); void attempt(() => sitesApi.createShareLink(organizationId, site.id, name.trim())).then(() => setName('')); }}>
        <label for="share-name">Name (who it is for)</label>
        <input id="share-name" value={name} maxLength={50} onInput={(event) => setName(event.currentTarget.value)} placeholder="Partner program" />
        <button type="submit" class="button primary">Create share link</button>
      </form>
    </section>
  );
}
