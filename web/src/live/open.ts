import { parseRoute } from '../app/router.ts';
import { LiveDocument } from './live-document.ts';

/**
 * The live document of a page of a change request, named `organization/space/changeRequest/page` (the
 * organization from the address the page is open at); null where the browser has no WebSocket.
 */
export function openLivePage(spaceId: string, changeRequestId: string, pageId: string, user: { id: string; displayName: string; photoURL?: string }): LiveDocument | null {
  if (typeof WebSocket === 'undefined') return null;
  const route = parseRoute(location.pathname);
  if (route.screen !== 'edit') return null;
  return new LiveDocument(`${route.organizationId}/${spaceId}/${changeRequestId}/${pageId}`, user);
}
