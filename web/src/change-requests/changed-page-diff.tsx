import { useQuery } from '../api/cache.ts';
import type { Document } from '../api/types.ts';
import { ErrorNote } from '../app/error-note.tsx';
import type { EditorPlace } from '../editor/editor.ts';
import { RenderedDiff, type DiffMode } from './rendered-diff.tsx';

/** One changed page, drawn before and after: its two versions are read with the loaders given (absent: no page on that side). */
export function ChangedPageDiff(props: {
  cacheKey: string;
  title: string;
  mode: DiffMode;
  before?: () => Promise<{ document?: Document }>;
  after?: () => Promise<{ document?: Document }>;
  place?: EditorPlace;
  labels?: [string, string];
}) {
  const none = async () => null;
  const before = useQuery(`${props.cacheKey}:before`, props.before ?? none);
  const after = useQuery(`${props.cacheKey}:after`, props.after ?? none);
  const failed = before.error ?? after.error;
  if (failed) return <ErrorNote error={failed} />;
  if (before.data === undefined || after.data === undefined) return <p aria-busy="true">Loading the changes…</p>;
  return (
    <RenderedDiff
      title={props.title}
      mode={props.mode}
      place={props.place}
      labels={props.labels}
      before={before.data ? (before.data.document ?? { object: 'document', nodes: [] } as unknown as Document) : undefined}
      after={after.data ? (after.data.document ?? { object: 'document', nodes: [] } as unknown as Document) : undefined}
    />
  );
}
