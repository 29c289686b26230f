import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { CopyField } from '../shared/copy-field.tsx';
import { ClaimsTryout } from './claims-tryout.tsx';
import { siteKey, sitesApi } from './sites-api.ts';
import type { JsonSchema, Site } from './types.ts';

/**
 * Visitor authentication and adaptive content: the key that signs visitors' tokens (copy, regenerate), the
 * address visitors without a token are sent to, the schema of the claims pages may adapt to, and a form to
 * try claims in place (claims-tryout.tsx); and the external MCP servers the site's assistant may use.
 */
export function VisitorsTab(props: { organizationId: string; site: Site }) {
  const { organizationId, site } = props;
  const key = siteKey(organizationId, site.id);
  const auth = useQuery(`${key}auth`, () => sitesApi.publishingAuth(organizationId, site.id));
  const schema = useQuery(`${key}adaptive`, () => sitesApi.adaptiveSchema(organizationId, site.id));
  const [error, setError] = useState<string | null>(null);
  const attempt = async (work: () => Promise<unknown>, prefix: string) => {
    setError(null);
    try {
      await work();
      invalidate(prefix);
    } catch (caught) {
      setError((caught as Error).message);
    }
  };
  return (
    <>
      <section class="panel" aria-labelledby="auth-title">
        <h2 id="auth-title">Visitor authentication</h2>
        {site.visibility !== 'visitor-auth' && <p class="notice">This site's visibility is not "visitor authentication": the key matters once it is (Overview).</p>}
        <p class="meta">Your product signs a JWT (HS256) with this key for each signed-in reader and sends them to the site with <code>?jwt_token=…</code>; its claims adapt what they see.</p>
        {auth.error && <ErrorNote error={auth.error} />}
        {auth.data && (
          <>
            <CopyField id="visitor-key" label="Signing key" value={auth.data.privateKey} />
            <button type="button" class="button" onClick={() => { if (window.confirm('Regenerate the key? Tokens signed with the current key stop working at once.')) void attempt(() => sitesApi.regeneratePublishingAuth(organizationId, site.id), `${key}auth`); }}>Regenerate key</button>
            <FallbackForm value={auth.data.fallbackURL ?? ''} onSave={(url) => attempt(() => sitesApi.updatePublishingAuth(organizationId, site.id, url || null), `${key}auth`)} />
          </>
        )}
      </section>
      {error && <p class="error-note" role="alert">{error}</p>}
      <section class="panel" aria-labelledby="adaptive-title">
        <h2 id="adaptive-title">Adaptive content</h2>
        {schema.error && <ErrorNote error={schema.error} />}
        {schema.data && <SchemaForm schema={schema.data.jsonSchema} onSave={(value) => attempt(() => sitesApi.saveAdaptiveSchema(organizationId, site.id, value), `${key}adaptive`)} />}
        {schema.data && <ClaimsTryout organizationId={organizationId} site={site} schema={schema.data.jsonSchema} signingKey={auth.data?.privateKey} />}
      </section>
    </>
  );
}

function FallbackForm(props: { value: string; onSave: (url: string) => Promise<void> }) {
  const [url, setUrl] = useState(props.value);
  return (
    <form class="inline-form redirect-form" onSubmit={(event) => { event.preventDefault(); void props.onSave(url.trim()); }}>
      <label for="fallback-url">Send visitors without a valid token to</label>
      <input id="fallback-url" type="url" value={url} onInput={(event) => setUrl(event.currentTarget.value)} placeholder="https://example.com/sign-in" />
      <button type="submit" class="button">Save address</button>
    </form>
  );
}

function SchemaForm(props: { schema: JsonSchema; onSave: (schema: JsonSchema) => Promise<void> }) {
  const [text, setText] = useState(JSON.stringify(props.schema, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (caught) {
      setProblem(`This is not JSON: ${(caught as Error).message}`);
      return;
    }
    setProblem(null);
    void props.onSave(parsed as JsonSchema);
  };
  return (
    <form class="form" onSubmit={submit}>
      <label>
        Claims schema (a JSON Schema of what a visitor's token says)
        <textarea class="code-input" rows={10} value={text} onInput={(event) => setText(event.currentTarget.value)} spellcheck={false} />
      </label>
      {problem && <p class="error-note" role="alert">{problem}</p>}
      <button type="submit" class="button">Save schema</button>
    </form>
  );
}
