import type { Context } from '../../context.ts';
import { downloadExpiry } from '../../content/file-urls.ts';
import type { LinkTarget } from '../../content/link-analysis/cache.ts';
import type { TreePage } from '../../content/tree.ts';
import { presentFile, presentPage } from '../content/presenter.ts';
import type { Organization } from '../orgs/schemas.ts';
import { presentOrganization } from '../orgs/presenter.ts';
import { presentSpace } from '../spaces/presenter.ts';
import type { Space } from '../spaces/schemas.ts';
import type { ContentLocation, LinksList, LinkUsage, PageLocation } from './schemas.ts';
import type { LinkItem, LinksPage, LinksScope } from './service.ts';

type Ctx = Pick<Context, 'config' | 'clock' | 'urls'>;

/**
 * At most this many pages are shown where a link is found, the first in reading order: a link in a shared
 * footer can sit on every page, and each location carries its organization, space and page. The links of
 * each page (`content/page/{pageId}/links`) give the rest.
 */
export const MAX_LOCATIONS = 25;

/**
 * Turns link analyses into content locations. The organization and space objects of one answer are built
 * once and shared by its items; pages are shown without their children, so an item stays small whatever
 * the size of the tree under the page.
 */
class Locations {
  private readonly organizations = new Map<string, Organization>();
  private readonly spaces = new Map<string, Space>();
  private readonly pages = new Map<string, PageLocation>();
  private readonly expires: number;

  constructor(
    private readonly ctx: Ctx,
    private readonly scope: LinksScope,
  ) {
    this.expires = downloadExpiry(ctx);
  }

  private organization(id: string): Organization {
    let presented = this.organizations.get(id);
    if (!presented) {
      const found = this.scope.organizations.get(id);
      if (!found) throw new Error(`Organization ${id} was not loaded.`);
      presented = presentOrganization(this.ctx, found.row, found.actor);
      this.organizations.set(id, presented);
    }
    return presented;
  }

  private space(id: string): Space | undefined {
    let presented = this.spaces.get(id);
    if (!presented) {
      const access = id === this.scope.space.id ? this.scope.access : this.scope.spaces.get(id);
      if (!access) return undefined;
      presented = presentSpace(this.ctx, access);
      this.spaces.set(id, presented);
    }
    return presented;
  }

  /** A page of this space's current content. */
  page(page: TreePage, anchor?: string): PageLocation {
    const cached = anchor === undefined ? this.pages.get(page.node.id) : undefined;
    if (cached) return cached;
    const location: PageLocation = {
      kind: 'page',
      organization: this.organization(this.scope.space.organization_id),
      space: this.space(this.scope.space.id)!,
      page: presentPage(this.ctx, this.scope, { ...page, pages: [] }, {}),
    };
    if (anchor !== undefined) location.internalLocation = { type: 'anchor', anchor };
    else this.pages.set(page.node.id, location);
    return location;
  }

  /** Where a link points; a target that is missing (or that the caller may not read) is shown as written. */
  target(target: LinkTarget, href: string): ContentLocation {
    const { tree } = this.scope.analysis;
    switch (target.kind) {
      case 'page': {
        const page = tree.byId.get(target.page);
        if (page) return this.page(page, target.anchor);
        break;
      }
      case 'file': {
        const file = tree.files.get(target.file);
        if (file) {
          return {
            kind: 'file',
            organization: this.organization(this.scope.space.organization_id),
            space: this.space(this.scope.space.id)!,
            file: presentFile(this.ctx, this.scope, file, {}, this.expires),
          };
        }
        break;
      }
      case 'space': {
        const space = this.space(target.space);
        if (space) return { kind: 'space', organization: this.organization(space.organization), space };
        break;
      }
      case 'url':
        return { kind: 'url', url: target.url };
    }
    return { kind: 'url', url: href };
  }

  usage(item: LinkItem): LinkUsage {
    const { tree } = this.scope.analysis;
    return {
      status: item.status,
      relation: item.link.relation,
      targetReference: this.target(item.link.target, item.link.href),
      locationReferences: item.pages.slice(0, MAX_LOCATIONS).map((id) => this.page(tree.byId.get(id)!)),
    };
  }
}

export function presentLinks(ctx: Ctx, list: LinksPage): LinksList {
  const locations = new Locations(ctx, list);
  return {
    ...(list.next ? { next: list.next } : {}),
    count: list.count,
    stats: list.stats,
    items: list.items.map((item) => locations.usage(item)),
  };
}

export function presentBacklinks(ctx: Ctx, scope: LinksScope, pages: TreePage[]): PageLocation[] {
  const locations = new Locations(ctx, scope);
  return pages.map((page) => locations.page(page));
}
