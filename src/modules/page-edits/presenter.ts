import type { Context } from '../../context.ts';
import { presentPage } from '../content/presenter.ts';
import type { RevisionPage } from '../content/schemas.ts';
import type { PageWrite } from './service.ts';

type Ctx = Pick<Context, 'config' | 'clock' | 'urls'>;

/** A written page as GET …/content/page/{pageId} answers it (its body as a document). */
async function writtenPage(ctx: Ctx, write: PageWrite): Promise<RevisionPage> {
  const view = write.page!;
  return presentPage(ctx, view, view.page, {}, await view.body());
}

/** The answer of a PATCH: `{ page, revision }`. */
export async function presentPageWrite(ctx: Ctx, write: PageWrite): Promise<{ page: RevisionPage; revision: string }> {
  return { page: await writtenPage(ctx, write), revision: write.revision };
}

/** The answer of a POST: the page, with `revision` beside its members. */
export async function presentCreatedPage(ctx: Ctx, write: PageWrite): Promise<RevisionPage & { revision: string }> {
  return { ...(await writtenPage(ctx, write)), revision: write.revision };
}
