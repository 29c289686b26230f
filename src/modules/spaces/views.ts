import type { MemberRole } from '../../policy/roles.ts';
import type { SpaceActor } from '../../policy/space.ts';
import type { SpaceRow } from '../../access/spaces.ts';

/** A space as services hand it to the presenter: the row and the caller's standing on it. */
export interface SpaceView {
  space: SpaceRow;
  actor: SpaceActor;
}

/** An item of a member's spaces: their level on it, and the space as the caller sees it. */
export interface MemberSpaceView extends SpaceView {
  permission: MemberRole;
}
