import './admin.css';
import { lazy, Suspense } from 'preact/compat';
import type { ComponentType } from 'preact';
import { useQuery } from '../../api/cache.ts';
import { api } from '../../api/operations.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { Link } from '../../app/link.tsx';
import { paths } from '../../app/router.ts';

type SectionProps = { organizationId: string; admin: boolean };

/** Each section's code loads when it is opened. */
const SECTIONS: Array<{ id: string; title: string; admin: boolean; screen: ComponentType<SectionProps> }> = [
  { id: 'members', title: 'Members', admin: false, screen: lazy(() => import('./members.tsx').then((m) => ({ default: m.MembersSection }))) },
  { id: 'invites', title: 'Invites', admin: true, screen: lazy(() => import('./invites.tsx').then((m) => ({ default: m.InvitesSection }))) },
  { id: 'teams', title: 'Teams', admin: false, screen: lazy(() => import('./teams.tsx').then((m) => ({ default: m.TeamsSection }))) },
  { id: 'collections', title: 'Collections', admin: false, screen: lazy(() => import('./collections.tsx').then((m) => ({ default: m.CollectionsSection }))) },
  { id: 'tokens', title: 'Your API tokens', admin: false, screen: lazy(() => import('./tokens.tsx').then((m) => ({ default: m.TokensSection }))) },
  { id: 'webhooks', title: 'Webhooks', admin: true, screen: lazy(() => import('./webhooks.tsx').then((m) => ({ default: m.WebhooksSection }))) },
  { id: 'audit-log', title: 'Audit log', admin: true, screen: lazy(() => import('./audit-log.tsx').then((m) => ({ default: m.AuditLogSection }))) },
  { id: 'identity', title: 'Identity', admin: true, screen: lazy(() => import('./identity.tsx').then((m) => ({ default: m.IdentitySection }))) },
  { id: 'translations', title: 'Translations', admin: false, screen: lazy(() => import('../integrations/translations.tsx').then((m) => ({ default: m.TranslationsSection }))) },
  { id: 'trash', title: 'Trash', admin: true, screen: lazy(() => import('../integrations/trash.tsx').then((m) => ({ default: m.TrashSection }))) },
  { id: 'openapi', title: 'OpenAPI specifications', admin: false, screen: lazy(() => import('../integrations/openapi-specs.tsx').then((m) => ({ default: m.OpenApiSection }))) },
];

const JoinScreen = lazy(() => import('./invites.tsx').then((m) => ({ default: m.JoinScreen })));

/** `/o/{org}/settings/{section}`: the organization's people, permissions and integrations. */
export function OrganizationSettingsScreen(props: { organizationId: string; section?: string }) {
  if (props.section === 'join') return <JoinScreen organizationId={props.organizationId} />;
  return <OrganizationSettings {...props} />;
}

function OrganizationSettings(props: { organizationId: string; section?: string }) {
  const organizations = useQuery('orgs', api.organizations);
  if (organizations.error) return <main id="main" class="screen"><ErrorNote error={organizations.error} /></main>;
  if (!organizations.data) return <main id="main" class="screen" aria-busy="true"><p>Loading…</p></main>;
  const organization = organizations.data.items.find((item) => item.id === props.organizationId);
  if (!organization) return <main id="main" class="screen"><h1>Settings</h1><p class="error-note" role="alert">You are not a member of this organization.</p></main>;
  const admin = organization.permissions.admin;
  const visible = SECTIONS.filter((section) => admin || !section.admin);
  const current = visible.find((section) => section.id === props.section) ?? visible[0];
  const Screen = current.screen;
  return (
    <div class="layout">
      <nav class="sidebar" aria-label="Settings">
        <p class="crumbs"><Link href={paths.organization(organization.id)}>← Spaces</Link></p>
        <h2 class="sidebar-title">{organization.title}</h2>
        <ul class="nav-list">
          {visible.map((section) => (
            <li key={section.id}>
              <Link href={paths.orgSettings(organization.id, section.id)} aria-current={section.id === current.id ? 'page' : undefined}>{section.title}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" class="screen">
        <h1>{current.title}</h1>
        <Suspense fallback={<p aria-busy="true">Loading…</p>}>
          <Screen key={current.id} organizationId={organization.id} admin={admin} />
        </Suspense>
      </main>
    </div>
  );
}
