import type { Context } from '../../context.ts';
import { downloadUrl } from '../../content/file-urls.ts';
import type { SemanticChange } from '../../content/changes.ts';
import type { StoredFile } from '../../content/revisions.ts';
import { presentChangeRequest } from '../change-requests/presenter.ts';
import type { SemanticChanges } from './schemas.ts';
import type { ChangesView } from './service.ts';

type Ctx = Pick<Context, 'clock' | 'config' | 'urls'>;

function file(ctx: Ctx, view: ChangesView, stored: StoredFile) {
  return { id: stored.id, name: stored.name, contentType: stored.contentType, downloadURL: downloadUrl(ctx, { spaceId: view.spaceId, fileId: stored.id, revisionId: view.revisionId }) };
}

function presentChange(ctx: Ctx, view: ChangesView, change: SemanticChange): SemanticChanges['changes'][number] {
  switch (change.type) {
    case 'file_created':
    case 'file_deleted':
    case 'file_edited':
      return { ...change, file: file(ctx, view, change.file) };
    case 'reusable_content_created':
    case 'reusable_content_deleted':
    case 'reusable_content_edited':
      return { ...change, reusableContent: { id: change.reusableContent.id, title: change.reusableContent.title } };
    default:
      return change;
  }
}

export function presentChanges(ctx: Ctx, view: ChangesView): SemanticChanges {
  const presented: SemanticChanges = { changes: view.changes.map((change) => presentChange(ctx, view, change)) };
  if (view.more > 0) presented.more = view.more;
  if (view.mergedFrom) presented.mergedFrom = presentChangeRequest(ctx, view.mergedFrom);
  return presented;
}
