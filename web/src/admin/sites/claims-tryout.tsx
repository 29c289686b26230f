import { useState } from 'preact/hooks';
import { useQuery } from '../../api/cache.ts';
import { siteKey, sitesApi } from './sites-api.ts';
import type { ClaimsContent, JsonSchema, SectionGroup, Site, SiteSection, SiteSpace, SiteStructure } from './types.ts';

/** A claim's typed value from what was typed: the schema's booleans and numbers become such. */
function typed(text: string, type: string | undefined): unknown {
  if (type === 'boolean') return text === 'true';
  if ((type === 'number' || type === 'integer') && text.trim() !== '' && !Number.isNaN(Number(text))) return Number(text);
  return text;
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const encode = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

/**
 * A visitor token as the site's own backend would sign it (HS256 with the site's key, expiring in five
 * minutes), made in the browser: it never leaves this page except to ask Quire what that visitor sees.
 */
export async function signVisitorToken(key: string, claims: Record<string, unknown>): Promise<string> {
  if (!globalThis.crypto?.subtle) throw new Error('This browser cannot sign here (the workspace must be served over HTTPS): open the site as this visitor instead.');
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ ...claims, exp: Math.floor(Date.now() / 1000) + 300 })}`;
  const secret = await crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', secret, new TextEncoder().encode(body)));
  return `${body}.${base64url(signature)}`;
}

type Shown = { sections: Set<string>; siteSpaces: Set<string> };

function visibleIds(structure: SiteStructure): Shown {
  const shown: Shown = { sections: new Set(), siteSpaces: new Set() };
  const section = (s: SiteSection) => { shown.sections.add(s.id); s.siteSpaces.forEach((v) => shown.siteSpaces.add(v.id)); };
  if (structure.type === 'siteSpaces') structure.structure.forEach((v) => shown.siteSpaces.add(v.id));
  else for (const item of structure.structure) (item as SectionGroup).object === 'site-section-group' ? (item as SectionGroup).sections.forEach(section) : section(item as SiteSection);
  return shown;
}

/**
 * Try claims in place: type a visitor's claims, and see which sections and variants (site spaces) of the
 * site that visitor gets, each hidden one with the condition that hides it (getPublishedContentSite with a
 * token signed by the site's key); or open the site as that visitor (claims in the address).
 */
export function ClaimsTryout(props: { organizationId: string; site: Site; schema: JsonSchema; signingKey?: string }) {
  const { organizationId, site } = props;
  const properties = Object.entries(props.schema.properties ?? {});
  const [values, setValues] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<Shown | null>(null);
  const [content, setContent] = useState<ClaimsContent | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const structure = useQuery(`${siteKey(organizationId, site.id)}structure`, () => sitesApi.structure(organizationId, site.id));
  if (properties.length === 0) return <p class="empty">Add claims to the schema to try them.</p>;
  const entered = Object.entries(values).filter(([, value]) => value !== '');
  const query = new URLSearchParams(entered.map(([name, value]) => [`visitor.${name}`, value]));
  const address = site.urls.published ? `${site.urls.published}${query.size ? `?${query}` : ''}` : null;
  const change = (name: string, value: string) => { setValues({ ...values, [name]: value }); setShown(null); setContent(null); };
  const tryThem = async (event: Event) => {
    event.preventDefault();
    if (!props.signingKey) return;
    setBusy(true);
    setError(null);
    try {
      const claims = Object.fromEntries(entered.map(([name, value]) => [name, typed(value, props.schema.properties?.[name]?.type)]));
      const [answer, inPages] = await Promise.all([sitesApi.publishedFor(organizationId, site.id, await signVisitorToken(props.signingKey, claims)), sitesApi.tryClaims(organizationId, site.id, claims)]);
      setShown(visibleIds(answer.structure));
      setContent(inPages);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="form try-claims" onSubmit={tryThem} aria-labelledby="try-title">
      <h3 id="try-title">Try claims</h3>
      {properties.map(([name, property]) => (
        <label key={name}>
          {name}{property.description ? <span class="meta"> — {property.description}</span> : null}
          {property.type === 'boolean' ? (
            <select value={values[name] ?? ''} onChange={(event) => change(name, event.currentTarget.value)}>
              <option value="">(not set)</option>
              <option value="true">true</option>
              <option value="false">false</option>
            </select>
          ) : (
            <input value={values[name] ?? ''} inputMode={property.type === 'number' || property.type === 'integer' ? 'decimal' : undefined} onInput={(event) => change(name, event.currentTarget.value)} />
          )}
        </label>
      ))}
      <div class="row">
        <button type="submit" class="button primary" disabled={busy || !props.signingKey}>See what this visitor gets</button>
        {address ? <a class="button" href={address} target="_blank" rel="noopener">Open the site as this visitor</a> : <p class="meta">Publish the site to open it as this visitor.</p>}
      </div>
      {error && <p class="error-note" role="alert">{error}</p>}
      <div role="status" class="claims-result">
        {shown && structure.data && <Outcome structure={structure.data} shown={shown} />}
        {shown && content && <PageContent content={content} />}
      </div>
    </form>
  );
}

function Outcome(props: { structure: SiteStructure; shown: Shown }) {
  const { shown } = props;
  const variant = (v: SiteSpace) => (
    <li key={v.id} class={shown.siteSpaces.has(v.id) ? '' : 'hidden-item'}>
      {v.title} <span class="meta">/{v.path}</span> — {shown.siteSpaces.has(v.id) ? 'shown' : `hidden${v.condition ? ` (only when ${v.condition})` : ''}`}
    </li>
  );
  const section = (s: SiteSection) => (
    <li key={s.id} class={shown.sections.has(s.id) ? '' : 'hidden-item'}>
      Section {s.title} — {shown.sections.has(s.id) ? 'shown' : `hidden${s.condition ? ` (only when ${s.condition})` : ''}`}
      {shown.sections.has(s.id) && <ul>{s.siteSpaces.map(variant)}</ul>}
    </li>
  );
  const count = shown.siteSpaces.size;
  return (
    <>
      <p><strong>This visitor gets {count} {count === 1 ? 'space' : 'spaces'}:</strong></p>
      <ul aria-label="What this visitor gets">
        {props.structure.type === 'siteSpaces'
          ? props.structure.structure.map(variant)
          : props.structure.structure.map((item) => ((item as SectionGroup).object === 'site-section-group'
            ? <li key={item.id}>Group {item.title}<ul>{(item as SectionGroup).sections.map(section)}</ul></li>
            : section(item as SiteSection)))}
      </ul>
    </>
  );
}

/** Per page, the adaptive blocks this visitor gets and those hidden from them, as the server evaluated them. */
function PageContent(props: { content: ClaimsContent }) {
  if (props.content.pages.length === 0) return <p class="meta">No page this visitor gets has conditional content.</p>;
  return (
    <>
      <p><strong>Conditional content in pages:</strong></p>
      <ul aria-label="Conditional content in pages">
        {props.content.pages.map((page) => (
          <li key={`${page.siteSpace}:${page.page}`}>
            {page.title} <span class="meta">/{page.path}</span>
            <ul aria-label={`Conditional content of ${page.title}`}>
              {page.blocks.map((block, index) => (
                <li key={index} class={block.shown ? '' : 'hidden-item'}>
                  {block.shown ? 'shown' : 'hidden'}: “{block.text || '(empty)'}” <span class="meta">(when {block.condition})</span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}
