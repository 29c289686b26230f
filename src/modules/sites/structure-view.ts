import type { Context } from '../../context.ts';
import type { SiteRow } from '../../db/rows.ts';
import type { SpaceActor } from '../../policy/space.ts';
import { loadSiteStructure, sectionsOf, type SiteStructureModel, type StructureSiteSpace } from '../../sites/structure.ts';
import { shareKeyActive } from '../../sites/visitor.ts';
import { spaceActorsFor } from './placement.ts';

/**
 * A site's structure as the presenter needs it: the model, the caller's standing on every space it
 * publishes (loaded in one batch), and the share key published URLs carry (only an active key of a
 * share-link site).
 */
export interface StructureView {
  site: SiteRow;
  model: SiteStructureModel;
  actors: Map<string, SpaceActor>;
  shareKey: string | null;
}

/** The share key published URLs carry: an active share key of a share-link site, else none. */
export async function usableShareKey(ctx: Pick<Context, 'db'>, site: SiteRow, key: string | undefined): Promise<string | null> {
  if (!key || site.visibility !== 'share-link') return null;
  return (await shareKeyActive(ctx, site.id, key)) ? key : null;
}

/** Loads the structure of a site for presenting (a model already loaded and filtered may be passed). */
export async function loadStructureView(ctx: Context, site: SiteRow, shareKey?: string | null, model?: SiteStructureModel): Promise<StructureView> {
  const structure = model ?? (await loadSiteStructure(ctx, site));
  const spaces = new Map<string, StructureSiteSpace['space']>();
  const collect = (list: StructureSiteSpace[]) => list.forEach((s) => spaces.set(s.space.id, s.space));
  if (structure.type === 'siteSpaces') collect(structure.siteSpaces);
  else sectionsOf(structure).forEach((s) => collect(s.siteSpaces));
  const actors = await spaceActorsFor(ctx, [...spaces.values()]);
  return { site, model: structure, actors, shareKey: await usableShareKey(ctx, site, shareKey ?? undefined) };
}

