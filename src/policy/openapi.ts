import type { OrganizationActor } from './organization.ts';
import { organizationRules } from './organization.ts';

/** Who the caller is for one OpenAPI specification of an organization they belong to. */
export interface OpenAPISpecActor {
  organization: OrganizationActor;
  /** The spec's visibility: a public spec is readable by anyone, guests of the organization included. */
  visibility: 'private' | 'public';
}

export const openAPISpecRules = {
  /** Members read every spec of their organization; guests only the public ones. */
  view: (a: OpenAPISpecActor) => a.organization.role !== null || a.visibility === 'public',
  /** Changing a spec takes what creating one takes: the create role (the organization's createOpenAPISpec). */
  edit: (a: OpenAPISpecActor) => organizationRules.createContent(a.organization),
};

export interface OpenAPISpecPermissions {
  view: boolean;
  edit: boolean;
  /** The client's document requires it beside view and edit. */
  delete: boolean;
}

/** The `permissions` object of a spec, computed by the rules its routes enforce. */
export function openAPISpecPermissions(a: OpenAPISpecActor): OpenAPISpecPermissions {
  return { view: openAPISpecRules.view(a), edit: openAPISpecRules.edit(a), delete: openAPISpecRules.edit(a) };
}
