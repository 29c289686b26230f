import { useSession } from '../account/session.ts';
import { Link } from './link.tsx';
import { paths, useRoute } from './router.ts';
import { SearchDialog } from '../search/search-dialog.tsx';
import { ShortcutsDialog } from './shortcuts-dialog.tsx';

export function Header() {
  const session = useSession();
  const route = useRoute();
  const organizationId = 'organizationId' in route ? route.organizationId : undefined;
  return (
    <header class="topbar">
      <Link href="/" class="brand">Quire</Link>
      {organizationId && (
        <nav aria-label="Organization" class="topbar-nav">
          <Link href={paths.sites(organizationId)} aria-current={route.screen === 'sites' ? 'page' : undefined}>Sites</Link>
          <Link href={paths.orgSettings(organizationId)} aria-current={route.screen === 'org-settings' ? 'page' : undefined}>Settings</Link>
        </nav>
      )}
      <SearchDialog />
      <ShortcutsDialog />
      <nav aria-label="Account" class="topbar-account">
        <a href="/account">{session.user.displayName}</a>
        <form method="post" action="/sign-out">
          <input type="hidden" name="_csrf" value={session.csrfToken} />
          <button type="submit" class="link-button">Sign out</button>
        </form>
      </nav>
    </header>
  );
}
