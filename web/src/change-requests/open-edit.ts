import { api } from '../api/operations.ts';
import type { ChangeRequest } from '../api/types.ts';

/**
 * "Edit": the person's own draft or open change request of the space if there is one (continued), else a new
 * one. The space's content is never written directly from the workspace: every edit goes through a change
 * request, so it can be reviewed.
 */
export async function openOrContinueChangeRequest(spaceId: string, userId: string, displayName: string): Promise<ChangeRequest> {
  for (const status of ['draft', 'open']) {
    const mine = await api.changeRequests(spaceId, status, userId);
    const own = mine.items.find((changeRequest) => changeRequest.createdBy.id === userId);
    if (own) return own;
  }
  return api.createChangeRequest(spaceId, `Edits by ${displayName}`);
}
