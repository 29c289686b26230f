import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { all, call, type OrganizationDetails, type Role, type Team } from './api.ts';
import { useTeams } from './teams.tsx';
import { ActionError, CopyField, RoleSelect, roleName, Section, useAction } from './ui.tsx';

interface SamlProvider {
  id: string;
  label: string;
  ssoURL: string;
  entityID: string;
  certificate: string;
  defaultTeam?: Team;
  defaultRole: Role | null;
  status: 'active' | 'pending';
  service: { acsURL: string; startURL: string; entityID: string };
}

interface OidcProvider {
  id: string;
  label: string;
  issuer: string;
  clientId: string;
  hasClientSecret: boolean;
  scopes: string[];
  defaultTeam?: Team;
  defaultRole: Role | null;
  service: { redirectURL: string; startURL: string };
}

/** Sign-in for the organization: e-mail domains and default role, SAML and OpenID Connect providers. */
export function IdentitySection(props: { organizationId: string }) {
  return (
    <>
      <Defaults organizationId={props.organizationId} />
      <SamlProviders organizationId={props.organizationId} />
      <OidcProviders organizationId={props.organizationId} />
    </>
  );
}

function Defaults(props: { organizationId: string }) {
  const key = `admin:${props.organizationId}:details`;
  const organization = useQuery(key, () => call<OrganizationDetails>('getOrganization', { organizationId: props.organizationId }));
  const [domains, setDomains] = useState<string | null>(null);
  const [role, setRole] = useState<Role | null | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  if (organization.error) return <ErrorNote error={organization.error} />;
  if (!organization.data) return <p aria-busy="true">Loading…</p>;
  const domainText = domains ?? organization.data.emailDomains.join('\n');
  const roleValue = role === undefined ? (organization.data.defaultRole ?? null) : role;
  const save = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    void action.run(async () => {
      const emailDomains = domainText.split(/[\s,;]+/).map((domain) => domain.trim().toLowerCase()).filter(Boolean);
      await call('updateOrganization', { organizationId: props.organizationId }, { emailDomains, defaultRole: roleValue });
      invalidate(key);
      setDomains(null);
      setRole(undefined);
      setSaved(true);
    });
  };
  return (
    <Section id="identity-defaults" title="E-mail domains and default role" lead="Someone who signs in with an address at one of these domains may join this organization, with the default role.">
      <form class="form" onSubmit={save}>
        <label>
          E-mail domains (one a line)
          <textarea rows={3} value={domainText} onInput={(event) => setDomains((event.currentTarget as HTMLTextAreaElement).value)} />
        </label>
        <div><RoleSelect id="default-role" label="Default role" value={roleValue} guest onChange={setRole} /></div>
        <div><button type="submit" class="button primary" disabled={action.busy}>Save</button></div>
      </form>
      <ActionError error={action.error} />
      {saved && <p role="status">Saved.</p>}
    </Section>
  );
}

/** The default team picker shared by both kinds of provider. */
function TeamSelect(props: { organizationId: string; id: string; value: string; onChange: (team: string) => void }) {
  const teams = useTeams(props.organizationId);
  return (
    <label for={props.id}>
      Default team
      <select id={props.id} value={props.value} onChange={(event) => props.onChange((event.currentTarget as HTMLSelectElement).value)}>
        <option value="">None</option>
        {(teams.data ?? []).map((team) => <option key={team.id} value={team.id}>{team.title}</option>)}
      </select>
    </label>
  );
}

function SamlProviders(props: { organizationId: string }) {
  const key = `admin:${props.organizationId}:saml`;
  const providers = useQuery(key, () => all<SamlProvider>('listSamlProviders', { organizationId: props.organizationId }));
  const [form, setForm] = useState({ label: '', ssoURL: '', entityID: '', certificate: '', defaultTeam: '' });
  const [role, setRole] = useState<Role | null>('read');
  const action = useAction();
  const set = (name: keyof typeof form) => (event: Event) => setForm({ ...form, [name]: (event.currentTarget as HTMLInputElement).value });
  const create = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await call('createSamlProvider', { organizationId: props.organizationId }, {
        label: form.label.trim(),
        ssoURL: form.ssoURL.trim() || null,
        entityID: form.entityID.trim() || null,
        certificate: form.certificate.trim() || null,
        defaultTeam: form.defaultTeam || null,
        defaultRole: role,
      });
      setForm({ label: '', ssoURL: '', entityID: '', certificate: '', defaultTeam: '' });
      invalidate(key);
    });
  };
  const remove = (provider: SamlProvider) => {
    if (!window.confirm(`Delete the SAML provider ${provider.label}? Its people can no longer sign in through it.`)) return;
    void action.run(async () => {
      await call('deleteSamlProvider', { organizationId: props.organizationId, samlProviderId: provider.id });
      invalidate(key);
    });
  };
  return (
    <Section id="saml" title="SAML providers" lead="Give your identity provider the values below (or its metadata address), then paste its sign-in address, entity id and certificate here.">
      {providers.error && <ErrorNote error={providers.error} />}
      {providers.data?.map((provider, index) => (
        <div key={provider.id} class="panel">
          <div class="section-head"><h3>{provider.label}</h3><span class="meta">{provider.status === 'active' ? 'Active' : 'Waiting for the provider’s values'} · new people get {roleName(provider.defaultRole)}{provider.defaultTeam ? ` in ${provider.defaultTeam.title}` : ''}</span></div>
          <CopyField id={`saml-acs-${index}`} label="ACS URL (Assertion Consumer Service)" value={provider.service.acsURL} />
          <CopyField id={`saml-entity-${index}`} label="Entity id (also the metadata address)" value={provider.service.entityID} />
          <div class="row">
            <a class="button" href={provider.service.entityID} download>Download metadata</a>
            <a class="button" href={provider.service.startURL} target="_blank" rel="noopener">Test sign-in</a>
            <button type="button" class="button danger" onClick={() => remove(provider)} disabled={action.busy}>Delete</button>
          </div>
        </div>
      ))}
      <form class="form panel" onSubmit={create} aria-label="New SAML provider">
        <label>Name shown on the sign-in page<input value={form.label} maxLength={30} required onInput={set('label')} /></label>
        <label>Identity provider's sign-in address (SSO URL)<input type="url" value={form.ssoURL} onInput={set('ssoURL')} /></label>
        <label>Identity provider's entity id<input value={form.entityID} onInput={set('entityID')} /></label>
        <label>Identity provider's certificate (PEM)<textarea rows={4} value={form.certificate} onInput={set('certificate')} /></label>
        <div><RoleSelect id="saml-role" label="Role of people who join through it" value={role} guest onChange={setRole} /></div>
        <TeamSelect organizationId={props.organizationId} id="saml-team" value={form.defaultTeam} onChange={(defaultTeam) => setForm({ ...form, defaultTeam })} />
        <div><button type="submit" class="button primary" disabled={action.busy || !form.label.trim()}>Add SAML provider</button></div>
      </form>
      <ActionError error={action.error} />
    </Section>
  );
}

function OidcProviders(props: { organizationId: string }) {
  const key = `admin:${props.organizationId}:oidc`;
  const providers = useQuery(key, () => all<OidcProvider>('listOidcProviders', { organizationId: props.organizationId }));
  const [form, setForm] = useState({ label: '', issuer: '', clientId: '', clientSecret: '', defaultTeam: '' });
  const [role, setRole] = useState<Role | null>('read');
  const action = useAction();
  const set = (name: keyof typeof form) => (event: Event) => setForm({ ...form, [name]: (event.currentTarget as HTMLInputElement).value });
  const create = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await call('createOidcProvider', { organizationId: props.organizationId }, {
        label: form.label.trim(),
        issuer: form.issuer.trim(),
        clientId: form.clientId.trim(),
        clientSecret: form.clientSecret || null,
        defaultTeam: form.defaultTeam || null,
        defaultRole: role,
      });
      setForm({ label: '', issuer: '', clientId: '', clientSecret: '', defaultTeam: '' });
      invalidate(key);
    });
  };
  const remove = (provider: OidcProvider) => {
    if (!window.confirm(`Delete the OpenID Connect provider ${provider.label}?`)) return;
    void action.run(async () => {
      await call('deleteOidcProvider', { organizationId: props.organizationId, oidcProviderId: provider.id });
      invalidate(key);
    });
  };
  return (
    <Section id="oidc" title="OpenID Connect providers" lead="Register the redirect address below at your provider, then paste its issuer, client id and client secret here.">
      {providers.error && <ErrorNote error={providers.error} />}
      {providers.data?.map((provider, index) => (
        <div key={provider.id} class="panel">
          <div class="section-head"><h3>{provider.label}</h3><span class="meta">{provider.issuer} · new people get {roleName(provider.defaultRole)}{provider.defaultTeam ? ` in ${provider.defaultTeam.title}` : ''}</span></div>
          <CopyField id={`oidc-redirect-${index}`} label="Redirect address" value={provider.service.redirectURL} />
          <div class="row">
            <a class="button" href={provider.service.startURL} target="_blank" rel="noopener">Test sign-in</a>
            <button type="button" class="button danger" onClick={() => remove(provider)} disabled={action.busy}>Delete</button>
          </div>
        </div>
      ))}
      <form class="form panel" onSubmit={create} aria-label="New OpenID Connect provider">
        <label>Name shown on the sign-in page<input value={form.label} maxLength={30} required onInput={set('label')} /></label>
        <label>Issuer<input type="url" value={form.issuer} required onInput={set('issuer')} /></label>
        <label>Client id<input value={form.clientId} required onInput={set('clientId')} /></label>
        <label>Client secret<input type="password" autoComplete="off" value={form.clientSecret} onInput={set('clientSecret')} /></label>
        <div><RoleSelect id="oidc-role" label="Role of people who join through it" value={role} guest onChange={setRole} /></div>
        <TeamSelect organizationId={props.organizationId} id="oidc-team" value={form.defaultTeam} onChange={(defaultTeam) => setForm({ ...form, defaultTeam })} />
        <div><button type="submit" class="button primary" disabled={action.busy || !form.label.trim()}>Add OpenID Connect provider</button></div>
      </form>
      <ActionError error={action.error} />
    </Section>
  );
}
