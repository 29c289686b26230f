import { lazy, Suspense } from 'preact/compat';
import { HomeScreen } from '../spaces/home-screen.tsx';
import { SpaceScreen } from '../spaces/space-screen.tsx';
import { Header } from './header.tsx';
import { useRoute } from './router.ts';

// Screens that carry the editor load on demand: the first load holds Preact and the light screens only.
const EditScreen = lazy(() => import('../pages/edit-screen.tsx').then((module) => ({ default: module.EditScreen })));
const SitesScreen = lazy(() => import('../admin/sites/sites-screen.tsx').then((module) => ({ default: module.SitesScreen })));
const OrganizationSettingsScreen = lazy(() => import('../admin/people/settings-screen.tsx').then((module) => ({ default: module.OrganizationSettingsScreen })));
const SpaceSettingsScreen = lazy(() => import('../admin/people/space-settings-screen.tsx').then((module) => ({ default: module.SpaceSettingsScreen })));
const HistoryScreen = lazy(() => import('../history/history-screen.tsx').then((module) => ({ default: module.HistoryScreen })));
const ReviewScreen = lazy(() => import('../change-requests/review-screen.tsx').then((module) => ({ default: module.ReviewScreen })));

export function Screens() {
  const route = useRoute();
  let screen;
  switch (route.screen) {
    case 'home':
      screen = <HomeScreen organizationId={route.organizationId} />;
      break;
    case 'space':
      screen = <SpaceScreen key={route.spaceId} organizationId={route.organizationId} spaceId={route.spaceId} pageId={route.pageId} />;
      break;
    case 'edit':
      screen = <EditScreen key={route.changeRequestId} {...route} />;
      break;
    case 'review':
      screen = <ReviewScreen {...route} />;
      break;
    case 'sites':
      screen = <SitesScreen key={route.siteId ?? ''} organizationId={route.organizationId} siteId={route.siteId} tab={route.tab} />;
      break;
    case 'org-settings':
      screen = <OrganizationSettingsScreen {...route} />;
      break;
    case 'space-settings':
      screen = <SpaceSettingsScreen key={route.spaceId} {...route} />;
      break;
    case 'history':
      screen = <HistoryScreen key={route.spaceId} {...route} />;
      break;
    default:
      screen = (
        <main id="main" class="screen">
          <h1>Nothing here</h1>
          <p>This address names no screen of the workspace. <a href="/">Go to your home</a>.</p>
        </main>
      );
  }
  return (
    <>
      <a class="skip-link" href="#main">Skip to content</a>
      <Header />
      <Suspense fallback={<main id="main" class="screen" aria-busy="true"><p>Loading…</p></main>}>{screen}</Suspense>
    </>
  );
}
