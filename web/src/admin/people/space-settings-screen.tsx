import './admin.css';
import { lazy, Suspense } from 'preact/compat';
import { useQuery } from '../../api/cache.ts';
import { api } from '../../api/operations.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { Link } from '../../app/link.tsx';
import { paths } from '../../app/router.ts';
import { emojiOf } from '../../spaces/home-screen.tsx';

const SharingPanel = lazy(() => import('./sharing.tsx').then((m) => ({ default: m.SharingPanel })));
const MergeRulesPanel = lazy(() => import('./merge-rules.tsx').then((m) => ({ default: m.MergeRulesPanel })));
const GitSyncPanel = lazy(() => import('../integrations/git-sync.tsx').then((m) => ({ default: m.GitSyncPanel })));

const SECTIONS = [
  { id: 'share', title: 'Share' },
  { id: 'merge-rules', title: 'Merge rules' },
  { id: 'git', title: 'Git Sync' },
] as const;

/** `/o/{org}/s/{space}/settings/{section}`: who has the space, what a merge needs, and its Git repository. */
export function SpaceSettingsScreen(props: { organizationId: string; spaceId: string; section?: string }) {
  const space = useQuery(`space:${props.spaceId}`, () => api.space(props.spaceId));
  if (space.error) return <main id="main" class="screen"><ErrorNote error={space.error} /></main>;
  if (!space.data) return <main id="main" class="screen" aria-busy="true"><p>Loading…</p></main>;
  const current = SECTIONS.find((section) => section.id === props.section) ?? SECTIONS[0];
  const permissions = space.data.permissions as typeof space.data.permissions & { triggerGitSync?: boolean };
  return (
    <div class="layout">
      <nav class="sidebar" aria-label="Space settings">
        <p class="crumbs"><Link href={paths.space(props.organizationId, props.spaceId)}>← Back to the space</Link></p>
        <h2 class="sidebar-title"><span aria-hidden="true">{emojiOf(space.data.emoji)}</span> {space.data.title}</h2>
        <ul class="nav-list">
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <Link href={paths.spaceSettings(props.organizationId, props.spaceId, section.id)} aria-current={section.id === current.id ? 'page' : undefined}>{section.title}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" class="screen">
        <h1>{current.title}: {space.data.title}</h1>
        <Suspense fallback={<p aria-busy="true">Loading…</p>}>
          {current.id === 'share' && <SharingPanel organizationId={props.organizationId} kind="space" id={props.spaceId} canManage={space.data.permissions.admin} />}
          {current.id === 'merge-rules' && <MergeRulesPanel organizationId={props.organizationId} spaceId={props.spaceId} canManage={space.data.permissions.admin} />}
          {current.id === 'git' && <GitSyncPanel organizationId={props.organizationId} spaceId={props.spaceId} canManage={permissions.triggerGitSync ?? permissions.edit} />}
        </Suspense>
      </main>
    </div>
  );
}
