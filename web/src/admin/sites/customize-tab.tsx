import { useEffect, useRef, useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { uploadFont } from './font-upload.ts';
import { siteKey, sitesApi } from './sites-api.ts';
import { SiteSpaceOverride } from './site-space-override.tsx';
import { FooterGroupsFields, type FooterGroup } from './footer-groups.tsx';
import type { Customization, CustomFont, HeaderLink, Site } from './types.ts';

const FONTS = ['Inter', 'Roboto', 'RobotoSlab', 'OpenSans', 'SourceSansPro', 'Lato', 'Ubuntu', 'Raleway', 'Merriweather', 'Overpass', 'NotoSans', 'IBMPlexSerif', 'Poppins', 'FiraSans'];

/** The form's copy of the settings without what GET adds (hasOverrides), ready for PUT and for the preview. */
function editable(settings: Customization): Customization {
  const { hasOverrides: _ignored, ...rest } = settings;
  return structuredClone(rest) as Customization;
}

/**
 * The site's look, with a live preview beside the form: every change asks previewSiteCustomization for a
 * sealed reader address (a moment after typing stops) and the frame shows the site with the unsaved
 * settings. Save stores them (updateSiteCustomizationById) and the published site shows them at once.
 */
export function CustomizeTab(props: { organizationId: string; site: Site }) {
  const { organizationId, site } = props;
  const saved = useQuery(`${siteKey(organizationId, site.id)}customization`, () => sitesApi.customization(organizationId, site.id));
  if (saved.error) return <ErrorNote error={saved.error} />;
  if (!saved.data) return <p aria-busy="true">Loading…</p>;
  return <CustomizeForm organizationId={organizationId} site={site} saved={saved.data} />;
}

function CustomizeForm(props: { organizationId: string; site: Site; saved: Customization }) {
  const { organizationId, site } = props;
  const [settings, setSettings] = useState<Customization>(() => editable(props.saved));
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fonts = useQuery(`org:${organizationId}:fonts`, () => sitesApi.fonts(organizationId));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      sitesApi.preview(organizationId, site.id, settings).then(
        (answer) => {
          // Framed on the workspace's own origin (frame-src and frame-ancestors are 'self').
          const address = new URL(answer.url);
          setPreviewUrl(`${address.pathname}${address.search}`);
          setPreviewError(null);
        },
        (caught: Error) => setPreviewError(caught.message),
      );
    }, 400);
    return () => { if (timer.current) clearTimeout(timer.current); };
  }, [settings]);

  const change = (edit: (draft: Customization) => void) => {
    setSettings((current) => {
      const draft = structuredClone(current);
      edit(draft);
      return draft;
    });
    setStatus('Unsaved changes.');
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const stored = await sitesApi.saveCustomization(organizationId, site.id, settings);
      invalidate(siteKey(organizationId, site.id));
      setSettings(editable(stored));
      setStatus('Saved: the published site shows it now.');
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const [uploading, setUploading] = useState(false);
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    setError(null);
    try {
      const font = await uploadFont(organizationId, file);
      invalidate(`org:${organizationId}:fonts`);
      change((draft) => { draft.styling.font = { id: font.id, custom: true, fontFamily: font.fontFamily, fontFaces: font.fontFaces }; });
      setStatus(`Font ${font.fontFamily} uploaded and chosen; save to publish it.`);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setUploading(false);
    }
  };

  const font = settings.styling.font;
  const fontValue = typeof font === 'string' ? font : `custom:${font.id}`;
  const customFonts: CustomFont[] = fonts.data?.items ?? [];
  const links = settings.header.links as HeaderLink[];

  return (
    <div class="customize">
      <form class="form customize-form" onSubmit={save} aria-label="Customization">
        <label>
          Title
          <input name="title" value={settings.title ?? ''} minLength={2} maxLength={128} onInput={(event) => change((d) => { d.title = event.currentTarget.value; })} />
        </label>
        <fieldset>
          <legend>Logo (an image address)</legend>
          <ThemedUrlFields name="logo" value={settings.header.logo} onChange={(value) => change((d) => { if (value) d.header.logo = value; else delete d.header.logo; })} />
        </fieldset>
        <fieldset>
          <legend>Icon (an image address)</legend>
          <ThemedUrlFields name="icon" value={settings.favicon.icon} onChange={(value) => change((d) => { if (value) d.favicon.icon = value; else delete d.favicon.icon; })} />
        </fieldset>
        <fieldset>
          <legend>Primary colour</legend>
          <div class="pair">
            <label>Light theme <input type="color" name="primary-light" value={settings.styling.primaryColor.light.toLowerCase()} onInput={(event) => change((d) => { d.styling.primaryColor.light = event.currentTarget.value; })} /></label>
            <label>Dark theme <input type="color" name="primary-dark" value={settings.styling.primaryColor.dark.toLowerCase()} onInput={(event) => change((d) => { d.styling.primaryColor.dark = event.currentTarget.value; })} /></label>
          </div>
        </fieldset>
        <fieldset>
          <legend>Font</legend>
          <label>
            Text font
            <select name="font" value={fontValue} onChange={(event) => {
              const value = event.currentTarget.value;
              const custom = customFonts.find((f) => `custom:${f.id}` === value);
              change((d) => { d.styling.font = custom ? { id: custom.id, custom: true, fontFamily: custom.fontFamily, fontFaces: custom.fontFaces } : value; });
            }}>
              {FONTS.map((name) => <option key={name} value={name}>{name}</option>)}
              {customFonts.map((f) => <option key={f.id} value={`custom:${f.id}`}>{f.fontFamily} (uploaded)</option>)}
            </select>
          </label>
          <label>
            Upload a font (.woff2 or .woff, at most 5 MB)
            <input type="file" name="font-file" accept=".woff2,.woff,font/woff2,font/woff" disabled={uploading} onChange={(event) => void upload(event.currentTarget.files?.[0])} />
          </label>
          {uploading && <p class="meta" aria-live="polite">Uploading…</p>}
        </fieldset>
        <fieldset>
          <legend>Theme</legend>
          <label>
            Default theme
            <select name="theme-default" value={settings.themes.default} onChange={(event) => change((d) => { d.themes.default = event.currentTarget.value as 'light' | 'dark'; })}>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </label>
          <label class="choice"><input type="checkbox" name="theme-toggle" checked={settings.themes.toggeable} onChange={(event) => change((d) => { d.themes.toggeable = event.currentTarget.checked; })} /> Readers may switch between light and dark</label>
        </fieldset>
        <fieldset>
          <legend>Header links</legend>
          {links.map((link, index) => (
            <div key={index} class="pair">
              <label>Text <input value={link.title} onInput={(event) => change((d) => { (d.header.links as HeaderLink[])[index].title = event.currentTarget.value; })} /></label>
              <label>Address <input type="url" value={link.to.url} onInput={(event) => change((d) => { (d.header.links as HeaderLink[])[index].to = { kind: 'url', url: event.currentTarget.value }; })} /></label>
              <button type="button" class="link-button" onClick={() => change((d) => { d.header.links.splice(index, 1); })}>Remove<span class="visually-hidden"> link {link.title}</span></button>
            </div>
          ))}
          <button type="button" class="button" onClick={() => change((d) => { d.header.links.push({ title: 'Support', to: { kind: 'url', url: 'https://example.com/support' } }); })}>Add a header link</button>
        </fieldset>
        <label>
          Footer copyright
          <input name="copyright" value={settings.footer.copyright ?? ''} maxLength={300} onInput={(event) => change((d) => { const value = event.currentTarget.value; if (value) d.footer.copyright = value; else delete d.footer.copyright; })} />
        </label>
        <FooterGroupsFields groups={settings.footer.groups as FooterGroup[]} onChange={(groups) => change((d) => { d.footer.groups = groups; })} />
        <fieldset>
          <legend>Reader features</legend>
          <label class="choice"><input type="checkbox" name="feedback" checked={settings.feedback.enabled} onChange={(event) => change((d) => { d.feedback.enabled = event.currentTarget.checked; })} /> Ask readers whether a page helped (feedback)</label>
          <label class="choice"><input type="checkbox" name="page-markdown" checked={settings.pageActions.markdown} onChange={(event) => change((d) => { d.pageActions.markdown = event.currentTarget.checked; })} /> Page action: copy or view the page as Markdown</label>
          <label class="choice"><input type="checkbox" name="page-ai" checked={settings.pageActions.externalAI} onChange={(event) => change((d) => { d.pageActions.externalAI = event.currentTarget.checked; })} /> Page action: open the page in an AI assistant</label>
        </fieldset>
        {error && <p class="error-note" role="alert">{error}</p>}
        <p class="meta" role="status">{status}</p>
        <button type="submit" class="button primary" disabled={busy}>{busy ? 'Saving…' : 'Save customization'}</button>
      </form>
      <section class="preview" aria-labelledby="preview-title">
        <h2 id="preview-title">Preview</h2>
        {previewError && <p class="error-note" role="alert">{previewError}</p>}
        {/* Out of the Tab order: a picture of the unsaved settings (Chromium shows no focus on a focused frame); the Overview tab links the published site itself. */}
        {previewUrl ? <iframe class="preview-frame" title="Preview of the site with these settings" src={previewUrl} tabIndex={-1} /> : <p aria-busy="true">Loading the preview…</p>}
      </section>
      <SiteSpaceOverride organizationId={organizationId} site={site} />
    </div>
  );
}

function ThemedUrlFields(props: { name: string; value?: { light: string; dark: string }; onChange: (value: { light: string; dark: string } | undefined) => void }) {
  const value = props.value ?? { light: '', dark: '' };
  const set = (which: 'light' | 'dark', text: string) => {
    const next = { ...value, [which]: text };
    if (!next.light && !next.dark) props.onChange(undefined);
    else props.onChange({ light: next.light || next.dark, dark: next.dark || next.light });
  };
  return (
    <div class="pair">
      <label>Light theme <input type="url" name={`${props.name}-light`} value={value.light} onInput={(event) => set('light', event.currentTarget.value)} placeholder="https://…" /></label>
      <label>Dark theme <input type="url" name={`${props.name}-dark`} value={value.dark} onInput={(event) => set('dark', event.currentTarget.value)} placeholder="https://…" /></label>
    </div>
  );
}
