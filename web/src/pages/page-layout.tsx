import { useEffect, useState } from 'preact/hooks';
import { api, type PageWrite, type RevisionFile } from '../api/operations.ts';
import type { DocumentPage, PageCover, PageLayout } from '../api/types.ts';
import './page-layout.css';

/** GitBook's defaults, for a page read before its layout was ever set. */
const DEFAULT_LAYOUT: PageLayout = { width: 'default', cover: true, coverSize: 'hero', title: true, description: true, tableOfContents: true, outline: true, pagination: true };

const TOGGLES: Array<{ key: 'cover' | 'title' | 'description' | 'tableOfContents' | 'outline' | 'pagination'; label: string }> = [
  { key: 'cover', label: 'Show the cover' },
  { key: 'title', label: 'Show the title' },
  { key: 'description', label: 'Show the description' },
  { key: 'tableOfContents', label: 'Show the table of contents (the navigation beside the page)' },
  { key: 'outline', label: 'Show the outline (the headings of the page)' },
  { key: 'pagination', label: 'Show previous and next links' },
];

const WEB_ADDRESS = /^https?:\/\/\S+$/i;

/**
 * A page's cover (a picture of the space's files, or an address) and its layout options (GitBook's page
 * layout: what the published page shows), each saved through the page's saver when it changes. The whole
 * layout is sent each time, so two quick changes never undo each other in the saver's pending write.
 */
export function PageLayoutOptions(props: { page: DocumentPage; spaceId: string; changeRequestId: string; onChange: (fields: PageWrite) => void }) {
  const [layout, setLayout] = useState<PageLayout>({ ...DEFAULT_LAYOUT, ...props.page.layout });
  const [cover, setCover] = useState<PageCover | null>(props.page.cover ?? null);
  const [files, setFiles] = useState<RevisionFile[] | null>(null);
  const [filesError, setFilesError] = useState<string | null>(null);
  const [addressProblem, setAddressProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api.files(props.spaceId, props.changeRequestId).then(
      (list) => live && setFiles(list.items.filter((file) => file.contentType.startsWith('image/'))),
      (failure: Error) => live && setFilesError(failure.message),
    );
    return () => {
      live = false;
    };
  }, [props.spaceId, props.changeRequestId]);

  const changeLayout = (change: Partial<PageLayout>) => {
    const next = { ...layout, ...change };
    setLayout(next);
    props.onChange({ layout: next });
  };
  const changeCover = (next: PageCover | null) => {
    setCover(next);
    props.onChange({ cover: next });
  };
  const chosenFile = cover?.ref?.kind === 'file' ? cover.ref.file : '';
  const address = cover?.ref?.kind === 'url' ? cover.ref.url : '';
  const preview = cover?.ref?.kind === 'file' ? files?.find((file) => file.id === chosenFile)?.downloadURL : address || undefined;

  return (
    <>
      <fieldset class="page-cover-options">
        <legend>Cover</legend>
        {filesError && <p class="error-note" role="alert">The files of the space could not be loaded: {filesError}</p>}
        <label>
          Picture from the space’s files
          <select
            name="cover-file"
            value={chosenFile}
            onChange={(event) => {
              const file = event.currentTarget.value;
              changeCover(file ? { ref: { kind: 'file', file } } : null);
            }}
          >
            <option value="">{files && files.length === 0 ? 'No pictures in this space' : 'None'}</option>
            {files?.map((file) => (
              <option key={file.id} value={file.id}>
                {file.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Or a picture’s address
          <input
            name="cover-url"
            type="url"
            placeholder="https://…"
            defaultValue={address}
            key={address}
            aria-invalid={addressProblem !== null}
            aria-describedby="cover-url-problem"
            onChange={(event) => {
              const value = event.currentTarget.value.trim();
              if (!value) {
                setAddressProblem(null);
                if (cover?.ref?.kind === 'url') changeCover(null);
                return;
              }
              if (!WEB_ADDRESS.test(value)) {
                setAddressProblem('Give an address that starts with https:// or http://.');
                return;
              }
              setAddressProblem(null);
              changeCover({ ref: { kind: 'url', url: value } });
            }}
          />
        </label>
        <p id="cover-url-problem" class="field-problem" aria-live="polite">{addressProblem ?? ''}</p>
        {preview && <img class="page-cover-preview" src={preview} alt="The cover as chosen" />}
        {cover && (
          <p>
            <button type="button" class="button" onClick={() => changeCover(null)}>Remove the cover</button>
          </p>
        )}
        <label>
          Cover size
          <select name="cover-size" value={layout.coverSize} onChange={(event) => changeLayout({ coverSize: event.currentTarget.value === 'full' ? 'full' : 'hero' })}>
            <option value="hero">Hero (a band above the title)</option>
            <option value="full">Full width</option>
          </select>
        </label>
      </fieldset>
      <fieldset class="page-layout-options">
        <legend>Layout: what the published page shows</legend>
        {TOGGLES.map((toggle) => (
          <label key={toggle.key} class="checkbox">
            <input type="checkbox" name={`layout-${toggle.key}`} checked={layout[toggle.key]} onChange={(event) => changeLayout({ [toggle.key]: event.currentTarget.checked })} /> {toggle.label}
          </label>
        ))}
        <label>
          Page width
          <select name="layout-width" value={layout.width} onChange={(event) => changeLayout({ width: event.currentTarget.value === 'wide' ? 'wide' : 'default' })}>
            <option value="default">Default</option>
            <option value="wide">Wide</option>
          </select>
        </label>
      </fieldset>
    </>
  );
}
