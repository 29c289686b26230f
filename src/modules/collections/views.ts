import type { CollectionActor } from '../../policy/space.ts';
import type { CollectionRow } from '../../access/collections.ts';

/** A collection as services hand it to the presenter: the row and the caller's standing on it. */
export interface CollectionView {
  collection: CollectionRow;
  actor: CollectionActor;
}
