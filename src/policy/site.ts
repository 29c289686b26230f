import type { OrganizationActor } from './organization.ts';
import { roleAtLeast } from './roles.ts';

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

/**
 * Who may do what with a site, by organization role (the caller is an OrganizationActor of the site's
 * organization):
 * - members (not guests) see sites, their structure, and their adaptive schema;
 * - the create role and above build sites: create them, change their settings, structure and schema;
 * - administrators delete and publish them, and hold their secrets: share links and the visitor-auth key.
 */
export const siteRules = {
  view: (a: OrganizationActor) => a.role !== null,
  manage: (a: OrganizationActor) => roleAtLeast(a.role, 'create'),
  admin: (a: OrganizationActor) => a.role === 'admin',
};

/** A reader of a published site: what they hold, and what the site is. */
export interface SiteAudience {
  /** A member (not a guest) of the site's organization, reading through the API: sees the site even unpublished. */
  member: boolean;
  published: boolean;
  visibility: SiteVisibility;
  /** Carried an active share key of this site. */
  sharedWith: boolean;
  /** Carried a valid visitor JWT signed with this site's key. */
  authenticated: boolean;
}

/**
 * The audience rule of a published site: a published site is open to anyone when public or unlisted, to
 * holders of an active share key when `share-link`, and to visitors with a valid JWT when `visitor-auth`.
 */
export function readsPublished(a: SiteAudience): boolean {
  if (a.member) return true;
  if (!a.published) return false;
  switch (a.visibility) {
    case 'public':
    case 'unlisted':
      return true;
    case 'share-link':
      return a.sharedWith;
    case 'visitor-auth':
      return a.authenticated;
  }
}
