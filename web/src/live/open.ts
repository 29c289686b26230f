import { parseRoute } from '../app/router.ts';
import { LiveDocument } from './live-document.ts';
import { ChangeRequestPresence } from './presence-channel.ts';

/**
 * The live document of a page of a change request, named `organization/space/changeRequest/page` (the
 * organization from the address the page is open at), in the editor's document model version `model`; null
 * where the browser has no WebSocket.
 */
export function openLivePage(spaceId: string, changeRequestId: string, pageId: string, user: { id: string; displayName: string; photoURL?: string }, model: string): LiveDocument | null {
  if (typeof WebSocket === 'undefined') return null;
  const route = parseRoute(location.pathname);
  if (route.screen !== 'edit') return null;
  return new LiveDocument(`${route.organizationId}/${spaceId}/${changeRequestId}/${pageId}`, user, model);
}

/** The presence channel of a change request (who is on which page, for the tree); null without WebSocket. */
export function openChangeRequestPresence(organizationId: string, spaceId: string, changeRequestId: string, user: { id: string; displayName: string; photoURL?: string }): ChangeRequestPresence | null {
  if (typeof WebSocket === 'undefined') return null;
  return new ChangeRequestPresence(`${organizationId}/${spaceId}/${changeRequestId}`, user);
}
