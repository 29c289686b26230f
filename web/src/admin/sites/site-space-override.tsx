import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { siteKey, sitesApi } from './sites-api.ts';
import type { Customization, Site } from './types.ts';

const FONTS = ['Inter', 'Roboto', 'RobotoSlab', 'OpenSans', 'SourceSansPro', 'Lato', 'Ubuntu', 'Raleway', 'Merriweather', 'Overpass', 'NotoSans', 'IBMPlexSerif', 'Poppins', 'FiraSans'];

/**
 * One site space's own look (overrideSiteSpaceCustomizationById): title, primary colours, logo, font,
 * default theme and footer copyright. The fields show what readers of that space get now; only the fields
 * changed here are sent, so everything else keeps following the site. "Use the site's settings" drops the
 * override (deleteSiteSpaceCustomizationById).
 */
export function SiteSpaceOverride(props: { organizationId: string; site: Site }) {
  const { organizationId, site } = props;
  const siteSpaces = useQuery(`${siteKey(organizationId, site.id)}site-spaces`, () => sitesApi.siteSpaces(organizationId, site.id));
  const [chosen, setChosen] = useState('');
  const items = siteSpaces.data?.items ?? [];
  if (items.length < 2) return null;
  return (
    <section class="panel form override-form" aria-labelledby="override-title">
      <h2 id="override-title">Per space</h2>
      <p class="meta">A space of the site can look different from the rest: what is not changed here follows the site.</p>
      <label>
        Space
        <select value={chosen} onChange={(event) => setChosen(event.currentTarget.value)}>
          <option value="">Choose a space…</option>
          {items.map((item) => <option key={item.id} value={item.id}>{item.title}</option>)}
        </select>
      </label>
      {chosen && <OverrideForm key={chosen} organizationId={organizationId} siteId={site.id} siteSpaceId={chosen} />}
    </section>
  );
}

function OverrideForm(props: { organizationId: string; siteId: string; siteSpaceId: string }) {
  const { organizationId, siteId, siteSpaceId } = props;
  const key = `${siteKey(organizationId, siteId)}override:${siteSpaceId}`;
  const current = useQuery(key, () => sitesApi.siteSpaceCustomization(organizationId, siteId, siteSpaceId));
  const [patch, setPatch] = useState<Record<string, Record<string, unknown> | string>>({});
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (current.error) return <ErrorNote error={current.error} />;
  if (!current.data) return <p aria-busy="true">Loading…</p>;
  const shown: Customization = current.data;
  /** The value a field shows: the unsaved edit, else what the space has now. */
  const value = <T,>(part: string, member: string | null, fallback: T): T => {
    const edited = patch[part];
    if (member === null) return edited === undefined ? fallback : (edited as T);
    const members = edited as Record<string, unknown> | undefined;
    return members && member in members ? (members[member] as T) : fallback;
  };
  const set = (part: string, member: string | null, next: unknown) => {
    setPatch((old) => (member === null ? { ...old, [part]: next as string } : { ...old, [part]: { ...((old[part] as Record<string, unknown>) ?? {}), [member]: next } }));
    setStatus('Unsaved changes.');
  };
  const primary = value('styling', 'primaryColor', shown.styling.primaryColor);
  const logo = value<{ light: string; dark: string } | null>('header', 'logo', shown.header.logo ?? null) ?? { light: '', dark: '' };
  const font = value('styling', 'font', shown.styling.font);

  const run = async (work: () => Promise<unknown>, done: string) => {
    setError(null);
    try {
      await work();
      setPatch({});
      invalidate(siteKey(organizationId, siteId));
      setStatus(done);
    } catch (caught) {
      setError((caught as Error).message);
    }
  };
  const save = (event: Event) => {
    event.preventDefault();
    if (Object.keys(patch).length === 0) { setStatus('Nothing changed.'); return; }
    void run(() => sitesApi.overrideSiteSpace(organizationId, siteId, siteSpaceId, patch), 'Override saved: readers of this space see it now.');
  };
  return (
    <form class="form" onSubmit={save} aria-label="Override for this space">
      <label>Title <input name="override-title" value={value('title', null, shown.title ?? '')} minLength={2} maxLength={128} onInput={(event) => set('title', null, event.currentTarget.value)} /></label>
      <div class="pair">
        <label>Primary colour, light <input type="color" name="override-primary-light" value={primary.light.toLowerCase()} onInput={(event) => set('styling', 'primaryColor', { ...primary, light: event.currentTarget.value })} /></label>
        <label>Primary colour, dark <input type="color" name="override-primary-dark" value={primary.dark.toLowerCase()} onInput={(event) => set('styling', 'primaryColor', { ...primary, dark: event.currentTarget.value })} /></label>
      </div>
      <label>
        Font
        <select name="override-font" value={typeof font === 'string' ? font : ''} onChange={(event) => set('styling', 'font', event.currentTarget.value)}>
          {typeof font !== 'string' && <option value="">{font.fontFamily} (uploaded)</option>}
          {FONTS.map((name) => <option key={name} value={name}>{name}</option>)}
        </select>
      </label>
      <div class="pair">
        <label>Logo, light <input type="url" name="override-logo-light" value={logo.light} placeholder="https://…" onInput={(event) => { const light = event.currentTarget.value; set('header', 'logo', light || logo.dark ? { light: light || logo.dark, dark: logo.dark || light } : null); }} /></label>
        <label>Logo, dark <input type="url" name="override-logo-dark" value={logo.dark} placeholder="https://…" onInput={(event) => { const dark = event.currentTarget.value; set('header', 'logo', dark || logo.light ? { light: logo.light || dark, dark: dark || logo.light } : null); }} /></label>
      </div>
      <label>
        Default theme
        <select name="override-theme" value={value('themes', 'default', shown.themes.default)} onChange={(event) => set('themes', 'default', event.currentTarget.value)}>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
      <label>Footer copyright <input name="override-copyright" value={value<string | null>('footer', 'copyright', shown.footer.copyright ?? '') ?? ''} maxLength={300} onInput={(event) => set('footer', 'copyright', event.currentTarget.value || null)} /></label>
      {error && <p class="error-note" role="alert">{error}</p>}
      <p class="meta" role="status">{status}</p>
      <div class="row">
        <button type="submit" class="button">Save override</button>
        <button type="button" class="button" onClick={() => void run(() => sitesApi.resetSiteSpaceCustomization(organizationId, siteId, siteSpaceId), 'This space follows the site again.')}>Use the site's settings</button>
      </div>
    </form>
  );
}
