import type { Context } from '../../context.ts';
import { spaceLocation } from '../spaces/presenter.ts';
import type { SearchPage, SearchSpace } from './schemas.ts';
import type { PageHit, SpaceHit } from './service.ts';

type Ctx = Pick<Context, 'config'>;

/**
 * A page hit. Quire has no separate editing app, so `urls.app` is the page's API address (as in page
 * objects); a section's address adds its anchor. The text before the first heading is a section with the
 * anchor "" and the page's title.
 */
export function presentSearchPage(ctx: Ctx, hit: PageHit): SearchPage {
  const app = `${spaceLocation(ctx, hit.spaceId)}/content/page/${encodeURIComponent(hit.pageId)}`;
  return {
    id: hit.pageId,
    title: hit.title,
    path: hit.path,
    sections: hit.sections.map((section) => ({
      id: section.id,
      title: section.id === '' ? hit.title : section.title,
      path: section.id === '' ? hit.path : `${hit.path}#${section.id}`,
      body: section.snippet,
      urls: { app: section.id === '' ? app : `${app}#${encodeURIComponent(section.id)}` },
    })),
    urls: { app },
  };
}

export function presentSearchSpace(ctx: Ctx, hit: SpaceHit): SearchSpace {
  return { id: hit.id, title: hit.title, pages: hit.pages.map((page) => presentSearchPage(ctx, page)) };
}
