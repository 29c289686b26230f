import { useEffect, useState } from 'preact/hooks';

/**
 * The workspace's addresses (all served by the same shell):
 * `/` home · `/o/{org}` an organization · `/o/{org}/s/{space}` a space (`/p/{page}` a page) ·
 * `/o/{org}/s/{space}/cr/{cr}` editing in a change request (`/p/{page}` a page) · `…/cr/{cr}/review` its review.
 */
export type Route =
  | { screen: 'home'; organizationId?: string }
  | { screen: 'space'; organizationId: string; spaceId: string; pageId?: string }
  | { screen: 'edit'; organizationId: string; spaceId: string; changeRequestId: string; pageId?: string }
  | { screen: 'review'; organizationId: string; spaceId: string; changeRequestId: string }
  | { screen: 'sites'; organizationId: string; siteId?: string; tab?: string }
  | { screen: 'org-settings'; organizationId: string; section?: string }
  | { screen: 'space-settings'; organizationId: string; spaceId: string; section?: string }
  | { screen: 'history'; organizationId: string; spaceId: string; revisionId?: string }
  | { screen: 'not-found' };

export function parseRoute(pathname: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { screen: 'home' };
  if (parts[0] !== 'o' || !parts[1]) return { screen: 'not-found' };
  const organizationId = parts[1];
  if (parts.length === 2) return { screen: 'home', organizationId };
  // `/o/{org}/sites` the sites · `/o/{org}/sites/{site}` one site · `/o/{org}/sites/{site}/{tab}` one of its screens.
  if (parts[2] === 'sites' && parts.length <= 5) return { screen: 'sites', organizationId, ...(parts[3] ? { siteId: parts[3] } : {}), ...(parts[4] ? { tab: parts[4] } : {}) };
  if (parts[2] === 'settings' && parts.length <= 4) return { screen: 'org-settings', organizationId, section: parts[3] };
  if (parts[2] !== 's' || !parts[3]) return { screen: 'not-found' };
  const spaceId = parts[3];
  const rest = parts.slice(4);
  if (rest.length === 0) return { screen: 'space', organizationId, spaceId };
  if (rest[0] === 'history' && rest.length <= 2) return { screen: 'history', organizationId, spaceId, ...(rest[1] ? { revisionId: rest[1] } : {}) };
  if (rest[0] === 'settings' && rest.length <= 2) return { screen: 'space-settings', organizationId, spaceId, section: rest[1] };
  if (rest[0] === 'p' && rest[1] && rest.length === 2) return { screen: 'space', organizationId, spaceId, pageId: rest[1] };
  if (rest[0] === 'cr' && rest[1]) {
    const changeRequestId = rest[1];
    if (rest.length === 2) return { screen: 'edit', organizationId, spaceId, changeRequestId };
    if (rest[2] === 'p' && rest[3]) return { screen: 'edit', organizationId, spaceId, changeRequestId, pageId: rest[3] };
    if (rest[2] === 'review') return { screen: 'review', organizationId, spaceId, changeRequestId };
  }
  return { screen: 'not-found' };
}

export const paths = {
  home: () => '/',
  organization: (o: string) => `/o/${o}`,
  space: (o: string, s: string, page?: string) => `/o/${o}/s/${s}${page ? `/p/${page}` : ''}`,
  edit: (o: string, s: string, cr: string, page?: string) => `/o/${o}/s/${s}/cr/${cr}${page ? `/p/${page}` : ''}`,
  review: (o: string, s: string, cr: string) => `/o/${o}/s/${s}/cr/${cr}/review`,
  sites: (o: string, site?: string, tab?: string) => `/o/${o}/sites${site ? `/${site}` : ''}${site && tab ? `/${tab}` : ''}`,
  orgSettings: (o: string, section?: string) => `/o/${o}/settings${section ? `/${section}` : ''}`,
  spaceSettings: (o: string, s: string, section?: string) => `/o/${o}/s/${s}/settings${section ? `/${section}` : ''}`,
  history: (o: string, s: string, revision?: string) => `/o/${o}/s/${s}/history${revision ? `/${revision}` : ''}`,
};

type Guard = () => string | null;
const guards = new Set<Guard>();

/** A screen with unsaved work registers a question asked before the workspace navigates away. */
export function addNavigationGuard(guard: Guard): () => void {
  guards.add(guard);
  return () => void guards.delete(guard);
}

function allowed(): boolean {
  for (const guard of guards) {
    const question = guard();
    if (question && !window.confirm(question)) return false;
  }
  return true;
}

export function navigate(to: string, replace = false): void {
  if (!allowed()) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event('quire:navigate'));
  window.scrollTo(0, 0);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname));
    window.addEventListener('popstate', update);
    window.addEventListener('quire:navigate', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('quire:navigate', update);
    };
  }, []);
  return route;
}

/** Follows a same-origin link inside the workspace without reloading; other clicks keep their meaning. */
export function followLink(event: MouseEvent, to: string): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(to);
}
