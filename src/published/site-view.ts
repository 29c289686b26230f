import type { Context } from '../context.ts';
import { siteView, type SiteView } from './model.ts';
import { siteByAddress, type CurrentContent, type SiteAddressing } from './resolve.ts';

/**
 * The reader's view of a site at its address under Quire's public URL, for callers outside a page request
 * (the API's redirect targets and site search, the MCP server): what a reader with these claims sees.
 */
export interface ReaderSiteView {
  addressing: SiteAddressing;
  view: SiteView;
  live: Map<string, CurrentContent>;
}

export async function readerSiteView(
  ctx: Pick<Context, 'db' | 'dialect' | 'config'>,
  site: { organization_id: string; basename: string },
  claims: Record<string, unknown> = {},
): Promise<ReaderSiteView | null> {
  const addressing = await siteByAddress(ctx, `/sites/${encodeURIComponent(site.organization_id)}/${encodeURIComponent(site.basename)}`);
  if (!addressing) return null;
  const view = await siteView(ctx, addressing, addressing.live, claims);
  return { addressing, view, live: addressing.live };
}
