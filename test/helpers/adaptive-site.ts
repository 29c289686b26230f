import type { TestApp } from './app.ts';
import { createSpaceWithPages, editContent } from './content-factory.ts';
import type { World } from './factories.ts';
import { createSite, type SiteHandle } from '../published/support.ts';

/**
 * A public site of one space holding a page "Pricing" (the adaptive Markdown given, which may include the
 * reusable content `.gitbook/includes/notice.md`), a page "Plain" the same for every reader, and that reusable
 * content "notice" (Markdown given too). The reader's and "Try claims"'s tests ask it for each set of claims.
 */
export async function createAdaptiveSite(t: TestApp, world: World, markdown: { pricing: string; notice: string }): Promise<{ spaceId: string; site: SiteHandle }> {
  const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [
    { type: 'document', title: 'Pricing', markdown: markdown.pricing },
    { type: 'document', title: 'Plain', markdown: 'The same page for every reader.\n' },
  ]);
  await editContent(t.ctx, spaceId, (writer) => {
    writer.putReusableContent({ id: 'notice', title: 'Notice', markdown: markdown.notice, git: { oid: '0'.repeat(40), path: '.gitbook/includes/notice.md' } });
  });
  const site = await createSite(world.admin, world.organizationId, { title: 'Plans', visibility: 'public', spaces: [spaceId] });
  return { spaceId, site };
}
