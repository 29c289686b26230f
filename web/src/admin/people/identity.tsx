import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { call, type OrganizationDetails, type Role, type Team } from './api.ts';
import { ProviderSection, type ProviderKind } from './sso-providers.tsx';
import { ActionError, CopyField, RoleSelect, Section, useAction } from './ui.tsx';

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

const SAML: ProviderKind<SamlProvider> = {
  id: 'saml',
  noun: 'SAML provider',
  title: 'SAML providers',
  lead: 'Give your identity provider the values below (or its metadata address), then paste its sign-in address, entity id and certificate here.',
  operations: { list: 'listSamlProviders', create: 'createSamlProvider', update: 'updateSamlProvider', remove: 'deleteSamlProvider', param: 'samlProviderId' },
  fields: [
    { name: 'ssoURL', label: "Identity provider's sign-in address (SSO URL)", type: 'url' },
    { name: 'entityID', label: "Identity provider's entity id" },
    { name: 'certificate', label: "Identity provider's certificate (PEM)", type: 'textarea' },
  ],
  values: (provider) => ({ label: provider.label, ssoURL: provider.ssoURL ?? '', entityID: provider.entityID ?? '', certificate: provider.certificate ?? '' }),
  summary: (provider) => (provider.status === 'active' ? 'Active' : 'Waiting for the provider’s values'),
  details: (provider, index) => (
    <>
      <CopyField id={`saml-acs-${index}`} label="ACS URL (Assertion Consumer Service)" value={provider.service.acsURL} />
      <CopyField id={`saml-entity-${index}`} label="Entity id (also the metadata address)" value={provider.service.entityID} />
    </>
  ),
  links: (provider) => (
    <>
      <a class="button" href={provider.service.entityID} download>Download metadata</a>
      <a class="button" href={provider.service.startURL} target="_blank" rel="noopener">Test sign-in</a>
    </>
  ),
};

const OIDC: ProviderKind<OidcProvider> = {
  id: 'oidc',
  noun: 'OpenID Connect provider',
  title: 'OpenID Connect providers',
  lead: 'Register the redirect address below at your provider, then paste its issuer, client id and client secret here.',
  operations: { list: 'listOidcProviders', create: 'createOidcProvider', update: 'updateOidcProvider', remove: 'deleteOidcProvider', param: 'oidcProviderId' },
  fields: [
    { name: 'issuer', label: 'Issuer', type: 'url', required: true },
    { name: 'clientId', label: 'Client id', required: true },
    { name: 'clientSecret', label: 'Client secret', type: 'password', secret: true },
  ],
  values: (provider) => ({ label: provider.label, issuer: provider.issuer, clientId: provider.clientId, clientSecret: '' }),
  summary: (provider) => `${provider.issuer}${provider.hasClientSecret ? '' : ' · no client secret'}`,
  details: (provider, index) => (
    <>
      <CopyField id={`oidc-redirect-${index}`} label="Redirect address" value={provider.service.redirectURL} />
    </>
  ),
  links: (provider) => <a class="button" href={provider.service.startURL} target="_blank" rel="noopener">Test sign-in</a>,
};

function SamlProviders(props: { organizationId: string }) {
  return <ProviderSection organizationId={props.organizationId} kind={SAML} />;
}

function OidcProviders(props: { organizationId: string }) {
  return <ProviderSection organizationId={props.organizationId} kind={OIDC} />;
}
