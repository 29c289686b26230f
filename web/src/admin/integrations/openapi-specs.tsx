import '../people/admin.css';
import { useEffect, useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { all, call } from '../people/api.ts';
import { ActionError, CopyField, Section, useAction, when } from '../people/ui.tsx';
import { ReferencePreview } from './reference-preview.tsx';

interface Spec {
  id: string;
  slug: string;
  sourceURL?: string;
  processingState: 'pending' | 'progress' | 'complete';
  visibility: 'private' | 'public';
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: string;
  lastProcessError?: string;
  updatedAt: string;
  permissions: { view: boolean; edit: boolean; delete: boolean };
  urls: { location: string; app: string; published?: string };
}

interface Version {
  id: string;
  createdAt: string;
  url: string;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function slugOf(text: string): string {
  return text.toLowerCase().replace(/\.(json|ya?ml)$/, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100);
}

/** OpenAPI specifications of the organization: add by address or by file, their versions, errors, visibility and a preview. */
export function OpenApiSection(props: { organizationId: string }) {
  const key = `admin:${props.organizationId}:openapi`;
  const specs = useQuery(key, () => all<Spec>('listOpenApiSpecs', { organizationId: props.organizationId }));
  const [slug, setSlug] = useState('');
  const [source, setSource] = useState<'url' | 'file'>('url');
  const [address, setAddress] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const action = useAction();

  const processing = specs.data?.some((spec) => spec.processingState !== 'complete') ?? false;
  useEffect(() => {
    if (!processing) return;
    const timer = setInterval(() => invalidate(key), 2000);
    return () => clearInterval(timer);
  }, [processing]);

  const add = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const name = slug.trim() || slugOf(file?.name ?? address.split('/').pop() ?? '');
      if (!SLUG.test(name)) throw new Error('The name may hold only lower-case letters, digits and dashes (for example "petstore").');
      const body = source === 'url' ? { url: address.trim() } : { text: await file!.text() };
      const existing = specs.data?.some((spec) => spec.slug === name);
      // A spec of that name gets a new version; a new name a new spec.
      if (existing) await call('putOpenApiSpec', { organizationId: props.organizationId, specSlug: name }, { source: body });
      else await call('createOpenApiSpec', { organizationId: props.organizationId }, { slug: name, source: body });
      setSlug('');
      setAddress('');
      setFile(null);
      setOpen(name);
      invalidate(key);
    });
  };
  const setVisibility = (spec: Spec, visibility: Spec['visibility']) =>
    action.run(async () => {
      await call('updateOpenApiSpec', { organizationId: props.organizationId, specSlug: spec.slug }, { visibility });
      invalidate(key);
    });
  const remove = (spec: Spec) => {
    if (!window.confirm(`Delete the specification ${spec.slug} and all its versions?`)) return;
    void action.run(async () => {
      await call('deleteOpenApiSpec', { organizationId: props.organizationId, specSlug: spec.slug });
      invalidate(key);
    });
  };

  return (
    <>
      <p class="lead">A specification added here can be shown in any space with an OpenAPI block; Quire keeps each version it reads.</p>
      <form class="form panel" onSubmit={add} aria-label="Add a specification">
        <fieldset class="row">
          <legend>Source</legend>
          <label class="choice"><input type="radio" name="spec-source" checked={source === 'url'} onChange={() => setSource('url')} /> From an address</label>
          <label class="choice"><input type="radio" name="spec-source" checked={source === 'file'} onChange={() => setSource('file')} /> Upload a file</label>
        </fieldset>
        {source === 'url' ? (
          <label>Address of the specification (JSON or YAML)<input type="url" value={address} required onInput={(event) => setAddress((event.currentTarget as HTMLInputElement).value)} /></label>
        ) : (
          <label>Specification file (JSON or YAML)<input type="file" accept=".json,.yaml,.yml,application/json,application/yaml" required onChange={(event) => setFile((event.currentTarget as HTMLInputElement).files?.[0] ?? null)} /></label>
        )}
        <label>Name (letters, digits and dashes; a name already used adds a version)<input value={slug} placeholder={slugOf(file?.name ?? address.split('/').pop() ?? '') || 'petstore'} onInput={(event) => setSlug((event.currentTarget as HTMLInputElement).value)} /></label>
        <div><button type="submit" class="button primary" disabled={action.busy}>Add specification</button></div>
      </form>
      <ActionError error={action.error} />
      {specs.error && <ErrorNote error={specs.error} />}
      {specs.data && specs.data.length === 0 && <p class="empty">No specifications yet: upload a file or give an address, then <strong>Add specification</strong>.</p>}
      {specs.data?.map((spec) => (
        <div key={spec.id} class="panel">
          <div class="section-head">
            <h2 id={`spec-${spec.slug}`}>{spec.slug}</h2>
            <span class={`status-${spec.processingState}`}>{spec.processingState === 'complete' ? (spec.lastProcessError ? 'Last update failed' : 'Ready') : 'Processing…'}</span>
          </div>
          <p class="meta">{spec.sourceURL ? `From ${spec.sourceURL}` : 'Uploaded'} · last read {when(spec.lastProcessedAt)}</p>
          {spec.lastProcessError && <p class="error-note" role="alert">{spec.lastProcessErrorCode === 'PARSE_ERROR' ? 'The file could not be read: ' : 'The address could not be fetched: '}{spec.lastProcessError}</p>}
          {spec.visibility === 'public' && spec.urls.published && <CopyField id={`spec-url-${spec.slug}`} label="Public address of its latest version" value={spec.urls.published} />}
          <div class="row">
            <label>
              Visibility
              <select value={spec.visibility} disabled={!spec.permissions.edit || action.busy} onChange={(event) => setVisibility(spec, (event.currentTarget as HTMLSelectElement).value as Spec['visibility'])}>
                <option value="private">Private: members only</option>
                <option value="public">Public: anyone with the address</option>
              </select>
            </label>
            <button type="button" class="button" aria-expanded={open === spec.slug} onClick={() => setOpen(open === spec.slug ? null : spec.slug)}>{open === spec.slug ? 'Hide versions and preview' : 'Versions and preview'}</button>
            {spec.permissions.delete && <button type="button" class="button danger" onClick={() => remove(spec)} disabled={action.busy}>Delete</button>}
          </div>
          {open === spec.slug && <SpecDetails organizationId={props.organizationId} spec={spec} />}
        </div>
      ))}
    </>
  );
}

function SpecDetails(props: { organizationId: string; spec: Spec }) {
  const params = { organizationId: props.organizationId, specSlug: props.spec.slug };
  const base = `admin:${props.organizationId}:openapi:${props.spec.slug}:${props.spec.lastVersion ?? 'none'}`;
  const versions = useQuery(`${base}:versions`, () => all<Version>('listOpenApiSpecVersions', params));
  const content = useQuery(props.spec.lastVersion ? `${base}:content` : null, () => call<{ filesystem: Array<{ isEntrypoint: boolean; specification: unknown }> }>('getLatestOpenApiSpecContent', params));
  const entry = content.data?.filesystem.find((file) => file.isEntrypoint) ?? content.data?.filesystem[0];
  return (
    <>
      <Section id={`versions-${props.spec.slug}`} title="Versions">
        {versions.error && <ErrorNote error={versions.error} />}
        {versions.data && versions.data.length === 0 && <p class="empty">No version was read yet.</p>}
        <ul class="nav-list">
          {versions.data?.map((version) => <li key={version.id}>{when(version.createdAt)} <span class="meta">{version.id === props.spec.lastVersion ? '(latest)' : ''}</span></li>)}
        </ul>
      </Section>
      <Section id={`preview-${props.spec.slug}`} title="Preview of the reference pages">
        {content.error && <ErrorNote error={content.error} />}
        {entry ? <ReferencePreview spec={entry.specification} /> : !content.error && <p class="empty">The preview shows once a version is read.</p>}
      </Section>
    </>
  );
}
