import { useSession } from '../account/session.ts';
import { Link } from './link.tsx';
import { paths, useRoute } from './router.ts';

export function Header() {
  const session = useSession();
  const route = useRoute();
  const settingsOf = 'organizationId' in route ? route.organizationId : undefined;
  return (
    <header class="topbar">
      <Link href="/" class="brand">Quire</Link>
      <nav aria-label="Account" class="topbar-account">
        {settingsOf && <Link href={paths.orgSettings(settingsOf)}>Settings</Link>}
        <a href="/account">{session.user.displayName}</a>
        <form method="post" action="/sign-out">
          <input type="hidden" name="_csrf" value={session.csrfToken} />
          <button type="submit" class="link-button">Sign out</button>
        </form>
      </nav>
    </header>
  );
}
