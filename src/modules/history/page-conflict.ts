import type { Context } from '../../context.ts';
import { changeRequestAccess } from '../../access/change-requests.ts';
import { bodyMarkdown, toDocument, type Document } from '../../content/documents.ts';
import { applyBlockChoices, mergeBlocks, joinBlocks, type BlockChoice, type BlockRun } from '../../content/merge/blocks.ts';
import { documentMarkdown } from '../page-edits/body.ts';
import type { DocumentInput } from '../page-edits/schemas.ts';
import { loadTree, type RevisionTree, type TreePage } from '../../content/tree.ts';
import { BadRequest, Conflict } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { assertActive } from '../change-requests/lifecycle.ts';

/** The three versions of one page a change request and its space both have, and their bodies aligned by block. */
export interface PageConflictView {
  pageId: string;
  title: { base?: string; space: string; changeRequest: string };
  revisions: { base: string; space: string; changeRequest: string };
  runs: BlockRun[];
  trees: { base: RevisionTree; space: RevisionTree; changeRequest: RevisionTree };
  pages: { base?: TreePage; space: TreePage; changeRequest: TreePage };
}

type Store = Pick<Context, 'db' | 'dialect'>;

/**
 * Aligns a page's body in the change request's merge base, the space's head and the change request's head
 * (`mergeBlocks`): the runs each side changed alone, the runs merged line by line, and the conflicting
 * runs. 400 when one side does not have the page.
 */
export async function alignPageConflict(ctx: Store, pageId: string, revisions: PageConflictView['revisions']): Promise<PageConflictView> {
  const rows = await ctx.db.selectFrom('revisions').select(['id', 'root']).where('id', 'in', [revisions.base, revisions.space, revisions.changeRequest]).execute();
  const rootOf = (id: string) => rows.find((row) => row.id === id)!.root;
  const [base, space, changeRequest] = await Promise.all([loadTree(ctx, rootOf(revisions.base)), loadTree(ctx, rootOf(revisions.space)), loadTree(ctx, rootOf(revisions.changeRequest))]);
  const pages = { base: base.byId.get(pageId), space: space.byId.get(pageId), changeRequest: changeRequest.byId.get(pageId) };
  if (!pages.space || !pages.changeRequest) {
    throw new BadRequest(`The page "${pageId}" is not in both the change request and the space (one side deleted it): restore or delete it in the editor, then update the change request.`);
  }
  if (pages.space.node.type !== 'document' || pages.changeRequest.node.type !== 'document') throw new BadRequest(`The page "${pageId}" has no text to align (it is a group or a link).`);
  const [baseText, spaceText, mineText] = await Promise.all([pages.base ? bodyMarkdown(ctx, pages.base) : '', bodyMarkdown(ctx, pages.space), bodyMarkdown(ctx, pages.changeRequest)]);
  return {
    pageId,
    title: { ...(pages.base ? { base: pages.base.node.title } : {}), space: pages.space.node.title, changeRequest: pages.changeRequest.node.title },
    revisions,
    runs: mergeBlocks(baseText, mineText, spaceText),
    trees: { base, space, changeRequest },
    pages: { base: pages.base, space: pages.space, changeRequest: pages.changeRequest },
  };
}

/**
 * One page of a change request aligned block by block with the space (view level): what resolving its
 * body block by block (`resolveChangeRequestConflicts` with `take: "blocks"`) chooses between. 400 when
 * the change request already includes the space's content; 409 when it is merged or archived.
 */
export async function getPageConflict(ctx: Context, spaceId: string, changeRequestId: string, pageId: string): Promise<PageConflictView> {
  const access = await changeRequestAccess(ctx, spaceId, changeRequestId);
  authorize(ctx, 'space.view', access.actor);
  const changeRequest = access.changeRequest;
  assertActive(changeRequest);
  if (changeRequest.revision_merged_ancestor === access.space.revision_id) {
    throw new BadRequest(`Change request #${changeRequest.number} already includes the space's current content: it has no conflict with it.`);
  }
  return alignPageConflict(ctx, pageId, { base: changeRequest.revision_merged_ancestor, space: access.space.revision_id, changeRequest: changeRequest.revision });
}

/** A run's blocks of one side as Markdown and as the JSON document each side's page would read them as. */
function side(view: PageConflictView, which: 'base' | 'space' | 'changeRequest', blocks: string[]): { markdown: string; document: Document } {
  const page = view.pages[which] ?? view.pages.space;
  const tree = view.pages[which] ? view.trees[which] : view.trees.space;
  const markdown = joinBlocks(blocks);
  return { markdown, document: toDocument(markdown, tree, page, false) };
}

/** The API's shape of a page aligned by block. */
export function presentPageConflict(view: PageConflictView) {
  let conflict = 0;
  return {
    object: 'change-request-page-conflict' as const,
    pageId: view.pageId,
    title: view.title,
    revisions: view.revisions,
    conflicts: view.runs.filter((run) => run.status === 'conflict').length,
    runs: view.runs.map((run) => ({
      status: run.status,
      ...(run.status === 'conflict' ? { conflict: conflict++ } : {}),
      base: side(view, 'base', run.base),
      space: side(view, 'space', run.space),
      changeRequest: side(view, 'changeRequest', run.changeRequest),
      ...(run.result ? { result: side(view, 'changeRequest', run.result) } : {}),
    })),
  };
}

/** 409 when the heads the person chose on are no longer the change request's and the space's. */
export function assertSameRevisions(view: Pick<PageConflictView, 'revisions'>, expected: { space: string; changeRequest: string } | undefined): void {
  if (!expected) return;
  if (expected.space !== view.revisions.space || expected.changeRequest !== view.revisions.changeRequest) {
    throw new Conflict('The space or the change request changed since these conflicts were read: read them again (getChangeRequestPageConflict) and choose again.');
  }
}

/** One choice as sent: an edited run comes as Markdown or as the editor's document. */
type ChoiceInput = { take: 'space' | 'change-request' | 'both' | 'edited'; markdown?: string; document?: DocumentInput };

/**
 * An edited run sent as a document, written as Markdown by the page writer over the change request's side
 * of the run (what the editor was prefilled with), so the blocks it did not change keep their bytes. 400
 * naming the choice when the document is malformed.
 */
function editedMarkdown(view: PageConflictView, run: BlockRun, document: DocumentInput, index: number): string {
  try {
    return documentMarkdown(document, { tree: view.trees.changeRequest, page: view.pages.changeRequest, previous: joinBlocks(run.changeRequest) });
  } catch (error) {
    if (error instanceof BadRequest) throw new BadRequest(`blocks[${index}].document: ${error.message}`);
    throw error;
  }
}

/** The page's text with one choice per conflicting run; 400 naming what is wrong with the choices. */
export function resolvedText(view: PageConflictView, choices: ChoiceInput[]): string {
  const conflicting = view.runs.filter((run) => run.status === 'conflict');
  const wanted = conflicting.length;
  if (choices.length !== wanted) {
    throw new BadRequest(`The page "${view.pageId}" has ${wanted} conflicting run${wanted === 1 ? '' : 's'} of blocks; ${choices.length} choice${choices.length === 1 ? ' was' : 's were'} sent in "blocks": send one per conflict, in order.`);
  }
  const checked: BlockChoice[] = choices.map((choice, index) => {
    if (choice.take === 'edited') {
      if (choice.markdown !== undefined && choice.document !== undefined) throw new BadRequest(`blocks[${index}] is "edited" with both "markdown" and "document": send one of them.`);
      if (choice.document !== undefined) return { take: 'edited', markdown: editedMarkdown(view, conflicting[index]!, choice.document, index) };
      if (choice.markdown === undefined) throw new BadRequest(`blocks[${index}] is "edited" without its "markdown" or "document": send the blocks to keep.`);
      return { take: 'edited', markdown: choice.markdown };
    }
    if (choice.markdown !== undefined || choice.document !== undefined) throw new BadRequest(`blocks[${index}] takes "${choice.take}": "markdown" and "document" go only with "edited".`);
    return { take: choice.take };
  });
  return applyBlockChoices(view.runs, checked);
}

/**
 * What resolving a page block by block with these choices would give (view level), written nowhere: the
 * text, and the document it reads as.
 */
export async function previewPageResolution(
  ctx: Context,
  spaceId: string,
  changeRequestId: string,
  pageId: string,
  body: { blocks: ChoiceInput[]; revisions?: { space: string; changeRequest: string } },
): Promise<{ markdown: string; document: Document }> {
  const view = await getPageConflict(ctx, spaceId, changeRequestId, pageId);
  assertSameRevisions(view, body.revisions);
  const markdown = resolvedText(view, body.blocks);
  return { markdown, document: toDocument(markdown, view.trees.changeRequest, view.pages.changeRequest, false) };
}
