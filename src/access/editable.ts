import { QuireError } from '../errors.ts';
import type { SpaceRow } from './spaces.ts';

/** 423 Locked: the space's content may not change while its edit mode is "locked". */
export class SpaceLocked extends QuireError {
  constructor(spaceId: string) {
    super(
      423,
      `Space "${spaceId}" is locked: its edit mode is "locked", so its content cannot change. An administrator of the space can unlock it with PATCH /v1/spaces/${spaceId} and the body { "editMode": "live" }.`,
    );
  }
}

/**
 * Refuses content changes to a locked space. Every operation that changes what a space holds (pages, files,
 * imports, templates, merges of change requests) calls this first, after its permission check. Changing
 * the space's settings, moving, duplicating, deleting or restoring it is not a content change.
 */
export function assertEditable(space: Pick<SpaceRow, 'id' | 'edit_mode'>): void {
  if (space.edit_mode === 'locked') throw new SpaceLocked(space.id);
}
