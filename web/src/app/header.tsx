import { useSession } from '../account/session.ts';
import { Link } from './link.tsx';
import { SearchDialog } from '../search/search-dialog.tsx';
import { ShortcutsDialog } from './shortcuts-dialog.tsx';

export function Header() {
  const session = useSession();
  return (
    <header class="topbar">
      <Link href="/" class="brand">Quire</Link>
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
