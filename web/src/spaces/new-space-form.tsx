import { useState } from 'preact/hooks';
import { api } from '../api/operations.ts';
import { navigate, paths } from '../app/router.ts';
import { zipFolder } from './folder-zip.ts';

const TEMPLATES = [
  { id: '', label: 'Blank space' },
  { id: 'product-docs', label: 'Product documentation' },
  { id: 'api-reference', label: 'API reference' },
  { id: 'knowledge-base', label: 'Knowledge base' },
];

const SOURCES: Record<string, 'markdown' | 'zip' | 'html' | 'docx'> = { md: 'markdown', markdown: 'markdown', zip: 'zip', html: 'html', htm: 'html', docx: 'docx' };

function dataUrl(file: Blob & { name?: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(`The file ${file.name ?? ''} could not be read: ${reader.error?.message ?? 'unknown error'}.`));
    reader.readAsDataURL(file);
  });
}

/** A new space: blank, from one of Quire's templates, or from an imported file or folder. */
export function NewSpaceForm(props: { organizationId: string; onCreated: () => void }) {
  const [title, setTitle] = useState('');
  const [template, setTemplate] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [folder, setFolder] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    const extension = file?.name.split('.').pop()?.toLowerCase() ?? '';
    if (file && folder.length > 0) {
      setError('Choose a file or a folder to import, not both.');
      return;
    }
    if (file && !SOURCES[extension]) {
      setError(`Quire imports .md, .zip, .html and .docx files; ${file.name} is none of them.`);
      return;
    }
    setBusy(true);
    try {
      const space = await api.createSpace(props.organizationId, { title: title.trim() || 'Untitled space' });
      if (template) await api.applyTemplate(space.id, template);
      if (file) await api.importContent(space.id, await dataUrl(file), SOURCES[extension]);
      else if (folder.length > 0) await api.importContent(space.id, await dataUrl(await zipFolder(folder)), 'zip');
      props.onCreated();
      navigate(paths.space(props.organizationId, space.id));
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel form" onSubmit={submit} aria-label="New space">
      <h3>Start from a template or a file</h3>
      <label>
        Title
        <input name="title" value={title} onInput={(event) => setTitle(event.currentTarget.value)} placeholder="Product guides" required maxLength={100} />
      </label>
      <fieldset>
        <legend>Start from</legend>
        {TEMPLATES.map((option) => (
          <label key={option.id} class="choice">
            <input type="radio" name="template" value={option.id} checked={template === option.id} onChange={() => setTemplate(option.id)} /> {option.label}
          </label>
        ))}
      </fieldset>
      <label>
        Or import a file (Markdown, zip, HTML, Word)
        <input type="file" name="import" accept=".md,.markdown,.zip,.html,.htm,.docx" onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />
      </label>
      <label>
        Or import a folder of Markdown
        <input type="file" name="import-folder" {...{ webkitdirectory: true }} multiple onChange={(event) => setFolder([...(event.currentTarget.files ?? [])])} />
      </label>
      {error && <p class="error-note" role="alert">{error}</p>}
      <button type="submit" class="button primary" disabled={busy}>{busy ? 'Creating…' : 'Create space'}</button>
    </form>
  );
}
