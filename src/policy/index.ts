import { Forbidden } from '../errors.ts';
import { organizationRules, type OrganizationActor } from './organization.ts';
import { teamRules } from './team.ts';
import { collectionRules, spaceRules, type CollectionActor, type SpaceActor } from './space.ts';
import { commentRules, type CommentActor } from './comment.ts';
import { mayMergePast, type MergeRules, type RuleViolation } from './merge-rules.ts';
import { readsPublished, siteRules } from './site.ts';
import { glossaryRules, translationEngineRules, translationRules, type TranslationActor } from './translation.ts';
import { openAPISpecRules, type OpenAPISpecActor } from './openapi.ts';

/**
 * Every policy a route can declare, with the sentence a caller reads when it denies them. A route names
 * one in `config.policy`; the service that does the work calls `authorize` with that name; a route without
 * a policy stops the server at start, and a route that answers success without checking its policy is
 * turned into a 500 (see src/http/policy-guard.ts). Failing closed both ways.
 */
export const policies = {
  'organization.view': { allow: (_actor: OrganizationActor) => organizationRules.view(), denied: 'You cannot see this organization.' },
  'organization.admin': { allow: organizationRules.admin, denied: 'Only administrators of the organization can do this.' },
  'organization.ping': { allow: (_actor: OrganizationActor) => organizationRules.view(), denied: 'You are not a member of this organization.' },
  'members.list': { allow: organizationRules.listMembers, denied: 'Guests cannot list the members of the organization.' },
  'members.view': { allow: organizationRules.viewMember, denied: 'Guests can only see their own membership.' },
  'members.update': { allow: organizationRules.admin, denied: 'Only administrators can change the role of a member.' },
  'members.remove': { allow: organizationRules.removeMember, denied: 'Only administrators can remove another member.' },
  'members.teams': { allow: organizationRules.listMemberTeams, denied: 'Guests can only list their own teams.' },
  'members.sso': { allow: organizationRules.admin, denied: 'Only administrators of the organization can make a user an SSO member.' },
  'teams.list': { allow: organizationRules.listTeams, denied: 'Guests cannot list the teams of the organization.' },
  'teams.create': { allow: teamRules.administer, denied: 'Only administrators of the organization can create teams.' },
  'teams.delete': { allow: teamRules.administer, denied: 'Only administrators of the organization can delete teams.' },
  'team.view': { allow: teamRules.view, denied: 'You cannot see this team.' },
  'team.manage': { allow: teamRules.manage, denied: 'Only organization administrators and owners of the team can change it.' },
  'team.removeMember': { allow: teamRules.removeMember, denied: 'Only organization administrators and owners of the team can remove its members.' },
  'saml.manage': { allow: organizationRules.admin, denied: 'Only administrators of the organization can manage SAML providers.' },
  'oidc.manage': { allow: organizationRules.admin, denied: 'Only administrators of the organization can manage OpenID Connect providers.' },
  'invites.manage': { allow: organizationRules.admin, denied: 'Only administrators of the organization can invite members.' },
  'space.view': { allow: spaceRules.view, denied: 'You cannot read this space.' },
  'space.admin': { allow: spaceRules.admin, denied: 'Only administrators of this space can do this.' },
  'space.edit': { allow: spaceRules.edit, denied: 'You need the edit level on this space to change its content.' },
  'space.comment': { allow: spaceRules.comment, denied: 'You need the comment level on this space to comment.' },
  'space.review': { allow: spaceRules.review, denied: 'You need the review level on this space to review.' },
  'space.triggerGitSync': { allow: spaceRules.triggerGitSync, denied: 'You need the edit level on this space to sync it with Git.' },
  'space.merge': { allow: spaceRules.merge, denied: 'You need the review level on this space to merge change requests.' },
  'spaces.create': { allow: organizationRules.createContent, denied: 'You need the create role in this organization to create spaces.' },
  'collection.view': { allow: collectionRules.view, denied: 'You cannot see this collection.' },
  'collection.admin': { allow: collectionRules.admin, denied: 'Only administrators of this collection can do this.' },
  'collection.create': { allow: collectionRules.create, denied: 'You need the create level in this collection to add content to it.' },
  'collections.create': { allow: organizationRules.createContent, denied: 'You need the create role in this organization to create collections.' },
  // Spaces and collections: lists filter item by item with the view rules, so every member and guest may ask.
  'spaces.list': { allow: (_a: OrganizationActor) => true, denied: 'You cannot list the spaces of this organization.' },
  'collections.list': { allow: (_a: OrganizationActor) => true, denied: 'You cannot list the collections of this organization.' },
  /** Deleting nothing (a space that is missing, already deleted, or that the caller cannot see) is answered 204 for anyone. */
  'space.delete': { allow: (a: SpaceActor | null) => a === null || spaceRules.admin(a), denied: 'Only administrators of this space can delete it.' },
  'collection.delete': { allow: (a: CollectionActor | null) => a === null || collectionRules.admin(a), denied: 'Only administrators of this collection can delete it.' },
  'user.update': { allow: (actorId: string, userId: string) => actorId === userId, denied: 'You can only change your own profile.' },
  // Sharing (src/modules/sharing): who a space or collection is shared with, and the roles given there.
  // Guests see who content is shared with only where they administer it: the lists carry members' e-mails.
  'space.viewPermissions': {
    allow: (a: SpaceActor) => spaceRules.admin(a) || (spaceRules.access(a) && a.orgRole != null),
    denied: 'Only members of the organization with access to this space, and its administrators, can see who it is shared with.',
  },
  'space.share': { allow: spaceRules.admin, denied: 'Only administrators of this space can change who it is shared with.' },
  'collection.viewPermissions': {
    allow: (a: CollectionActor) => collectionRules.admin(a) || (collectionRules.view(a) && a.orgRole != null),
    denied: 'Only members of the organization with access to this collection, and its administrators, can see who it is shared with.',
  },
  'collection.share': { allow: collectionRules.admin, denied: 'Only administrators of this collection can change who it is shared with.' },
  // Reviews and merge rules (src/policy/merge-rules.ts).
  'changeRequest.review': {
    allow: (a: SpaceActor, isAuthor: boolean) => spaceRules.review(a) && !isAuthor,
    denied: 'You need the review level on this space to review, and cannot review a change request you created.',
  },
  /** The merge rules: the refusal names them (the service throws mergeRefusal's sentence). */
  'changeRequest.mergeRules': {
    allow: (a: SpaceActor, rules: MergeRules, violations: RuleViolation[]) => mayMergePast(a, rules, violations),
    denied: 'This change request does not meet the merge rules of its space.',
  },
  'content.transferIn': { allow: organizationRules.admin, denied: 'Only administrators of the target organization can transfer content into it.' },
  'members.spaces': { allow: organizationRules.listMemberTeams, denied: 'Guests can only list their own spaces.' },
  // Comments and replies of spaces and change requests (src/policy/comment.ts).
  'comment.view': { allow: commentRules.view, denied: 'Only members with access to this space can read its comments.' },
  'comment.post': { allow: commentRules.post, denied: 'You need the comment level on this space to post comments.' },
  'comment.reply': { allow: commentRules.post, denied: 'You need the comment level on this space to reply to comments.' },
  'comment.edit': { allow: commentRules.edit, denied: 'Only the author of this comment, while they have the comment level, can change what it says.' },
  'comment.resolve': { allow: commentRules.resolve, denied: 'You need the comment level on this space to resolve or reopen comments.' },
  'comment.react': { allow: commentRules.react, denied: 'You need the comment level on this space to react to comments.' },
  'comment.update': { allow: commentRules.update, denied: 'You cannot make this change to the comment.' },
  /** Deleting nothing (a comment or reply that is not there) is answered 204 for anyone who can read the discussion. */
  'comment.delete': { allow: (a: CommentActor | null) => a === null || commentRules.delete(a), denied: 'Only the author and administrators of this space can delete this comment.' },
  // Sites (src/policy/site.ts).
  'site.view': { allow: siteRules.view, denied: 'Guests cannot see the sites of this organization.' },
  'site.manage': { allow: siteRules.manage, denied: 'You need the create role in this organization to change its sites.' },
  'site.admin': { allow: siteRules.admin, denied: 'Only administrators of the organization can do this to a site.' },
  /** Deleting nothing (a site that is not there) is answered 204 for any member. */
  'site.delete': { allow: (a: OrganizationActor, exists: boolean) => !exists || siteRules.admin(a), denied: 'Only administrators of the organization can delete a site.' },
  /** The published site: its profile through the API, and its pages through the reader. Denials are answered 404. */
  'site.readPublished': { allow: readsPublished, denied: 'This site is not published for you.' },
  'webhooks.manage': { allow: organizationRules.admin, denied: 'Only administrators of the organization can manage its webhooks.' },
  'audit.read': { allow: organizationRules.admin, denied: 'Only administrators of the organization can read its audit log.' },
  'trash.manage': { allow: organizationRules.admin, denied: 'Only administrators of the organization can see, restore or empty its trash.' },
  // Translations and the glossary (src/policy/translation.ts). Lists filter by the source space's view rule.
  'translations.list': { allow: (_a: OrganizationActor) => true, denied: 'You cannot list the translations of this organization.' },
  'translation.create': { allow: translationRules.create, denied: 'You need the create role in this organization to translate its spaces.' },
  'translation.view': { allow: translationRules.view, denied: 'You cannot see this translation.' },
  'translation.edit': { allow: translationRules.edit, denied: 'You need the create role in this organization to change or delete translations.' },
  /** Deleting nothing (a translation that is not there) is answered 204 for any member. */
  'translation.delete': { allow: (a: TranslationActor | null) => a === null || translationRules.edit(a), denied: 'You need the create role in this organization to delete translations.' },
  'glossary.view': { allow: glossaryRules.view, denied: 'Guests cannot read the glossary of this organization.' },
  'glossary.edit': { allow: glossaryRules.edit, denied: 'You need the create role in this organization to change its glossary.' },
  'translationEngine.view': { allow: translationEngineRules.view, denied: 'Guests cannot see the translation engine of this organization.' },
  'translationEngine.update': { allow: translationEngineRules.update, denied: 'Only administrators of the organization can choose its translation engine.' },
  // OpenAPI specifications (src/policy/openapi.ts). Lists filter spec by spec with the view rule.
  'openapi.list': { allow: (_a: OrganizationActor) => true, denied: 'You cannot list the OpenAPI specifications of this organization.' },
  'openapi.create': { allow: organizationRules.createContent, denied: 'You need the create role in this organization to add OpenAPI specifications.' },
  /** PUT creates or updates: both take the create role. */
  'openapi.put': { allow: organizationRules.createContent, denied: 'You need the create role in this organization to add or update OpenAPI specifications.' },
  'openapi.view': { allow: openAPISpecRules.view, denied: 'You cannot see this OpenAPI specification.' },
  'openapi.edit': { allow: openAPISpecRules.edit, denied: 'You need the create role in this organization to change OpenAPI specifications.' },
  /** Deleting nothing (a spec that is not there) is answered 204 for any member. */
  'openapi.delete': { allow: (a: OpenAPISpecActor | null) => a === null || openAPISpecRules.edit(a), denied: 'You need the create role in this organization to delete OpenAPI specifications.' },
} as const;

export type PolicyName = keyof typeof policies;

/** Policies that need no check inside the handler: open routes, and routes any token holder may call. */
export type OpenPolicy = 'public' | 'authenticated';
export type RoutePolicy = PolicyName | OpenPolicy;

type RuleArgs<N extends PolicyName> = Parameters<(typeof policies)[N]['allow']>;

/** Anything that records which policies a request has checked (the request Context). */
export interface PolicyLedger {
  checked: Set<string>;
}

/** Evaluates a policy; records that it was checked; throws Forbidden when it denies. */
export function authorize<N extends PolicyName>(ledger: PolicyLedger, name: N, ...args: RuleArgs<N>): void {
  ledger.checked.add(name);
  const allow = policies[name].allow as (...a: RuleArgs<N>) => boolean;
  if (!allow(...args)) throw new Forbidden(policies[name].denied);
}

/** Evaluates a policy without throwing (for filtering lists); records the check like authorize. */
export function allows<N extends PolicyName>(ledger: PolicyLedger, name: N, ...args: RuleArgs<N>): boolean {
  ledger.checked.add(name);
  return (policies[name].allow as (...a: RuleArgs<N>) => boolean)(...args);
}

export function isRoutePolicy(value: unknown): value is RoutePolicy {
  return value === 'public' || value === 'authenticated' || (typeof value === 'string' && value in policies);
}

export type { TeamActor } from './team.ts';
export type { OrganizationActor } from './organization.ts';
export type { CollectionActor, SpaceActor } from './space.ts';
export type { CommentActor, CommentChange } from './comment.ts';
export type { SiteAudience, SiteVisibility } from './site.ts';
export type { TranslationActor } from './translation.ts';
export type { OpenAPISpecActor } from './openapi.ts';
