import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../api/cache.ts';
import { api } from '../api/operations.ts';
import type { Organization } from '../api/types.ts';
import { Link } from '../app/link.tsx';
import { paths } from '../app/router.ts';
import { ErrorNote } from '../app/error-note.tsx';
import { NewSpaceForm } from './new-space-form.tsx';
import { ConnectGitForm } from './connect-git-form.tsx';
import { NewCollectionForm } from './new-collection-form.tsx';
import './home.css';
import { useSession } from '../account/session.ts';
import type { Space } from '../api/types.ts';
import { useFavoriteSpaces } from './favorites.tsx';
import { recentSpaceIds } from './recent-spaces.ts';
import { SpaceCard } from './space-card.tsx';

/** How many recently opened spaces the home screen shows. */
const RECENT_SHOWN = 6;

/** Home: the person's organizations, and the chosen one's favourite, recent and other spaces, and collections. */
export function HomeScreen(props: { organizationId?: string }) {
  const organizations = useQuery('orgs', api.organizations);
  if (organizations.error) return <main id="main" class="screen"><ErrorNote error={organizations.error} /></main>;
  if (!organizations.data) return <main id="main" class="screen" aria-busy="true"><p>Loading…</p></main>;
  const items = organizations.data.items;
  const current = items.find((organization) => organization.id === props.organizationId) ?? items[0];
  return (
    <div class="layout">
      <nav class="sidebar" aria-label="Organizations">
        <h2 class="sidebar-title">Organizations</h2>
        {items.length === 0 ? (
          <p class="empty">You belong to no organization yet. Ask an administrator of Quire for an invitation, or create one with <code>quire org create</code>.</p>
        ) : (
          <ul class="nav-list">
            {items.map((organization) => (
              <li key={organization.id}>
                <Link href={paths.organization(organization.id)} aria-current={organization.id === current?.id ? 'page' : undefined}>{organization.title}</Link>
              </li>
            ))}
          </ul>
        )}
      </nav>
      <main id="main" class="screen">{current ? <OrganizationHome organization={current} /> : <h1>Welcome to Quire</h1>}</main>
    </div>
  );
}

function OrganizationHome({ organization }: { organization: Organization }) {
  const spaces = useQuery(`org:${organization.id}:spaces`, () => api.spaces(organization.id));
  const collections = useQuery(`org:${organization.id}:collections`, () => api.collections(organization.id));
  const [creating, setCreating] = useState(false);
  const [grouping, setGrouping] = useState(false);
  const session = useSession();
  const favorites = useFavoriteSpaces();
  const empty = spaces.data?.items.length === 0;
  const starred = new Set(favorites.data?.items.map((space) => space.id) ?? []);
  const favoriteSpaces = favorites.data?.items.filter((space) => space.organization === organization.id) ?? [];
  // Opened lately in this browser, and still readable: the organization's list is what the person may see.
  const recent = spaces.data
    ? recentSpaceIds(session.user.id, organization.id)
        .map((id) => spaces.data!.items.find((space) => space.id === id))
        .filter((space): space is Space => space !== undefined)
        .slice(0, RECENT_SHOWN)
    : [];
  return (
    <>
      <h1>{organization.title}</h1>
      {!empty && (
        <section aria-labelledby="favorites-title">
          <h2 id="favorites-title">Favourites</h2>
          {favorites.error && <ErrorNote error={favorites.error} />}
          {favorites.data && favoriteSpaces.length === 0 && <p class="empty">No favourites yet: star a space (☆ on its card) to keep it here, in every browser you sign in to.</p>}
          {favoriteSpaces.length > 0 && (
            <ul class="card-list" aria-label="Favourite spaces">
              {favoriteSpaces.map((space) => <SpaceCard key={space.id} space={space} starred />)}
            </ul>
          )}
        </section>
      )}
      {!empty && (
        <section aria-labelledby="recent-title">
          <h2 id="recent-title">Recently opened</h2>
          {spaces.data && recent.length === 0 && <p class="empty">The spaces you open in this browser show here.</p>}
          {recent.length > 0 && (
            <ul class="card-list" aria-label="Recently opened spaces">
              {recent.map((space) => <SpaceCard key={space.id} space={space} starred={starred.has(space.id)} />)}
            </ul>
          )}
        </section>
      )}
      <section aria-labelledby="spaces-title">
        <div class="section-head">
          <h2 id="spaces-title">Spaces</h2>
          {organization.permissions.createContent && !empty && (
            <button type="button" class="button" onClick={() => setCreating(!creating)} aria-expanded={creating}>New space</button>
          )}
        </div>
        {spaces.error && <ErrorNote error={spaces.error} />}
        {spaces.data && empty && (
          <div class="first-steps">
            <p>
              <strong>No spaces yet.</strong> A space holds one set of documentation: start one from a template,
              import a folder of Markdown, a zip of it, a Markdown file, an HTML page or a Word document, or connect a Git repository.
            </p>
            {organization.permissions.createContent ? (
              <div class="first-steps-choices">
                <NewSpaceForm organizationId={organization.id} onCreated={() => invalidate(`org:${organization.id}:`)} />
                <ConnectGitForm organizationId={organization.id} onCreated={() => invalidate(`org:${organization.id}:`)} />
              </div>
            ) : (
              <p>You may read here but not create spaces: ask an administrator of {organization.title}.</p>
            )}
          </div>
        )}
        {creating && !empty && (
          <div class="first-steps-choices">
            <NewSpaceForm organizationId={organization.id} onCreated={() => { setCreating(false); invalidate(`org:${organization.id}:`); }} />
            <ConnectGitForm organizationId={organization.id} onCreated={() => { setCreating(false); invalidate(`org:${organization.id}:`); }} />
          </div>
        )}
        {spaces.data && !empty && (
          <ul class="card-list" aria-label="All spaces">
            {spaces.data.items.map((space) => <SpaceCard key={space.id} space={space} starred={starred.has(space.id)} />)}
          </ul>
        )}
      </section>
      <section aria-labelledby="collections-title">
        <div class="section-head">
          <h2 id="collections-title">Collections</h2>
          {organization.permissions.createContent && (
            <button type="button" class="button" onClick={() => setGrouping(!grouping)} aria-expanded={grouping}>New collection</button>
          )}
        </div>
        {grouping && <NewCollectionForm organizationId={organization.id} onCreated={() => { setGrouping(false); invalidate(`org:${organization.id}:`); }} />}
        {collections.error && <ErrorNote error={collections.error} />}
        {collections.data && collections.data.items.length === 0 && (
          <p class="empty">
            No collections yet. A collection groups spaces (a product's guides, its API reference…) and shares them at once
            {organization.permissions.createContent ? <>: <strong>New collection</strong> makes one.</> : <>; someone who may create spaces here makes them.</>}
          </p>
        )}
        {collections.data && collections.data.items.length > 0 && (
          <ul class="card-list">
            {collections.data.items.map((collection) => (
              <li key={collection.id} class="card">
                <span>{collection.title}</span>
                <span class="meta">{spaces.data?.items.filter((space) => space.parent === collection.id).length ?? 0} spaces</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** A space's emoji: stored as its code points in hex ("1f4d8"), or as the character itself. */
export function emojiOf(code: string | undefined): string {
  if (!code) return '';
  if (/^[0-9a-f]+(-[0-9a-f]+)*$/i.test(code)) return String.fromCodePoint(...code.split('-').map((part) => parseInt(part, 16)));
  return code;
}
