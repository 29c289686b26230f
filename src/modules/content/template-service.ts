import type { Context } from '../../context.ts';
import { inTransaction } from '../../context.ts';
import { lockSpaceHead, setSpaceHead } from '../../content/head.ts';
import { applyTemplate, findTemplate } from '../../content/templates/index.ts';
import { RevisionWriter } from '../../content/writer.ts';
import { authorize } from '../../policy/index.ts';
import { spaceAccess } from '../../access/spaces.ts';
import { assertEditable } from '../../access/editable.ts';
import type { ApplyTemplateBody } from './schemas.ts';

export interface AppliedTemplate {
  revisionId: string;
  pageIds: string[];
}

/**
 * Applies a built-in template: its pages are added after the space's existing pages in one new revision
 * (type "edits", parent: the current revision), which becomes the space's current one. Nothing existing
 * is changed or removed.
 */
export async function applySpaceTemplate(ctx: Context, spaceId: string, body: ApplyTemplateBody): Promise<AppliedTemplate> {
  return inTransaction(ctx, async (tx) => {
    const { space, actor } = await spaceAccess(tx, spaceId);
    authorize(tx, 'space.edit', actor);
    assertEditable(space);
    const template = findTemplate(body.id);
    // Two writers cannot both build on the same current revision.
    const current = await lockSpaceHead(tx, space.id);
    const writer = await RevisionWriter.fromRevision(tx, current);
    const pageIds = applyTemplate(writer, template, body.params?.contentRefs ?? {});
    const { revisionId } = await writer.commit(tx, { spaceId: space.id, type: 'edits', parents: [current] });
    await setSpaceHead(tx, space.id, revisionId, { expected: current });
    return { revisionId, pageIds };
  });
}
