import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { siteKey, sitesApi } from './sites-api.ts';
import type { Site } from './types.ts';

/** One site space's own primary colour (overrideSiteSpaceCustomizationById); the rest follows the site. */
export function SiteSpaceOverride(props: { organizationId: string; site: Site }) {
  const { organizationId, site } = props;
  const siteSpaces = useQuery(`${siteKey(organizationId, site.id)}site-spaces`, () => sitesApi.siteSpaces(organizationId, site.id));
  const [chosen, setChosen] = useState('');
  const [color, setColor] = useState('#346ddb');
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const items = siteSpaces.data?.items ?? [];
  if (items.length < 2) return null;
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      await sitesApi.overrideSiteSpace(organizationId, site.id, chosen, { styling: { primaryColor: { light: color, dark: color } } });
      invalidate(siteKey(organizationId, site.id));
      setStatus('Override saved.');
    } catch (caught) {
      setError((caught as Error).message);
    }
  };
  return (
    <form class="panel form override-form" onSubmit={submit} aria-labelledby="override-title">
      <h2 id="override-title">Per space</h2>
      <p class="meta">A space of the site can have its own primary colour; everything else follows the site.</p>
      <label>
        Space
        <select value={chosen} onChange={(event) => setChosen(event.currentTarget.value)} required>
          <option value="">Choose a space…</option>
          {items.map((item) => <option key={item.id} value={item.id}>{item.title}</option>)}
        </select>
      </label>
      <label>Primary colour <input type="color" value={color} onInput={(event) => setColor(event.currentTarget.value)} /></label>
      {error && <p class="error-note" role="alert">{error}</p>}
      <p class="meta" role="status">{status}</p>
      <button type="submit" class="button" disabled={!chosen}>Save override</button>
    </form>
  );
}
