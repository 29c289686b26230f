import { callOperation } from '../api/operations.ts';
import type { ChangeRequest, Document, DocumentPage } from '../api/types.ts';

/** One revision of a space's history, as `listRevisions` gives it. */
export interface HistoryEntry {
  id: string;
  type: string;
  parents: string[];
  createdAt: string;
  createdBy?: { id: string; displayName: string };
  mergedFrom?: { id: string; number: number; subject?: string };
  pages: Array<{ id: string; title: string; change: 'page_created' | 'page_deleted' | 'page_moved' | 'page_edited' }>;
  morePages?: number;
  otherChanges: number;
}

/** What a merge or an update from the space refused, page by page. */
export interface MergeConflict {
  kind: string;
  pageId?: string;
  title: string;
  path?: string;
  detail: string;
}

export interface MergeAnswer {
  result: 'merge' | 'update' | 'conflicts';
  revision: string;
  conflicts?: MergeConflict[];
}

export interface Resolution {
  pageId: string;
  take: 'change-request' | 'space' | 'edited' | 'blocks';
  title?: string;
  markdown?: string;
  blocks?: BlockChoice[];
}

/** How one conflicting run of blocks is settled. */
export interface BlockChoice {
  take: 'space' | 'change-request' | 'both' | 'edited';
  markdown?: string;
  /** With "edited": the blocks as the editor's document (the server writes the Markdown); else `markdown`. */
  document?: Document;
}

/** One side of a run of blocks: its Markdown and the document it reads as. */
export interface RunSide {
  markdown: string;
  document: Document;
}

/** A page of the change request and the space aligned block by block (getChangeRequestPageConflict). */
export interface PageConflict {
  pageId: string;
  title: { base?: string; space: string; changeRequest: string };
  revisions: { base: string; space: string; changeRequest: string };
  conflicts: number;
  runs: Array<{ status: 'unchanged' | 'space' | 'change-request' | 'merged' | 'conflict'; conflict?: number; base: RunSide; space: RunSide; changeRequest: RunSide; result?: RunSide }>;
}

export const historyApi = {
  revisions: (spaceId: string, page?: string) =>
    callOperation<{ items: HistoryEntry[]; next?: { page: string } }>('listRevisions', { spaceId }, undefined, page ? { limit: '20', page } : { limit: '20' }),
  revisionPage: (spaceId: string, revisionId: string, pageId: string, format: 'document' | 'markdown' = 'document') =>
    callOperation<DocumentPage & { markdown?: string }>('getPageInRevisionById', { spaceId, revisionId, pageId }, undefined, { format }),
  restore: (spaceId: string, revisionId: string, pageId?: string) => callOperation<ChangeRequest>('restoreRevision', { spaceId, revisionId }, pageId ? { pageId } : {}),
  merge: (spaceId: string, changeRequestId: string) => callOperation<MergeAnswer>('mergeChangeRequest', { spaceId, changeRequestId }),
  updateFromSpace: (spaceId: string, changeRequestId: string) => callOperation<MergeAnswer>('updateChangeRequestFromSpace', { spaceId, changeRequestId }),
  resolve: (spaceId: string, changeRequestId: string, resolutions: Resolution[], revisions?: { space: string; changeRequest: string }) =>
    callOperation<MergeAnswer>('resolveChangeRequestConflicts', { spaceId, changeRequestId }, revisions ? { resolutions, revisions } : { resolutions }),
  pageConflict: (spaceId: string, changeRequestId: string, pageId: string) => callOperation<PageConflict>('getChangeRequestPageConflict', { spaceId, changeRequestId, pageId }),
  previewBlocks: (spaceId: string, changeRequestId: string, pageId: string, blocks: BlockChoice[], revisions: { space: string; changeRequest: string }) =>
    callOperation<RunSide>('previewChangeRequestPageResolution', { spaceId, changeRequestId, pageId }, { blocks, revisions }),
  changeRequestPage: (spaceId: string, changeRequestId: string, pageId: string, format: 'document' | 'markdown') =>
    callOperation<DocumentPage & { markdown?: string }>('getChangeRequestPage', { spaceId, changeRequestId, pageId }, undefined, { format }),
  spacePage: (spaceId: string, pageId: string, format: 'document' | 'markdown') => callOperation<DocumentPage & { markdown?: string }>('getSpacePage', { spaceId, pageId }, undefined, { format }),
};
