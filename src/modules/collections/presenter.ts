import type { Context } from '../../context.ts';
import { collectionPermissions } from '../../policy/space.ts';
import { presentLevel } from '../spaces/presenter.ts';
import type { Collection } from './schemas.ts';
import type { CollectionView } from './views.ts';


export function collectionLocation(ctx: Pick<Context, 'config'>, id: string): string {
  return `${ctx.config.publicUrl}/v1/collections/${id}`;
}

/** The API object of a collection; `urls.app` is the API address (Quire has no separate editing app). */
export function presentCollection(ctx: Pick<Context, 'config'>, { collection, actor }: CollectionView): Collection {
  const location = collectionLocation(ctx, collection.id);
  const presented: Collection = {
    object: 'collection',
    id: collection.id,
    title: collection.title,
    organization: collection.organization_id,
    defaultLevel: presentLevel(collection.default_level),
    urls: { location, app: location },
    permissions: collectionPermissions(actor),
  };
  if (collection.description !== null) presented.description = collection.description;
  if (collection.parent_id) presented.parent = collection.parent_id;
  return presented;
}
