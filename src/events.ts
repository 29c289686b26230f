/**
 * Domain events: what happened, told to whoever subscribed when the app was assembled (src/services.ts)
 * through the event bus (src/event-bus.ts). This file names the events and their data; it imports nothing.
 * A listener runs inside the transaction of the change that emits the event, so the follow-up work it
 * enqueues (indexing, Git export, translation) commits together with the change or not at all. The code
 * that emits an event does not know who listens.
 */
export interface DomainEventMap extends OrganizationEventMap {
  /** A space's current revision changed (an edit, a merge, an import, a template, a duplicate). */
  'space-content-changed': SpaceContentChanged;
  /** A change request is about to be merged: emitted before the merge reads it, outside any transaction. */
  'change-request-merging': ChangeRequestMerging;
}

/**
 * What happened in an organization, by the names webhooks subscribe to. Every area emits its own with
 * `ctx.events.emit(tx, 'space.created', { … })` inside the transaction of the write; webhooks (and any
 * later listener) subscribe in src/services.ts. The data of an event is what any administrator of the
 * organization may see: ids, titles, numbers, states; never a secret, a token, content or an e-mail.
 */
export interface OrganizationEventMap {
  'space.created': SpaceEvent;
  'space.updated': SpaceEvent;
  'space.deleted': SpaceEvent;
  'change_request.opened': ChangeRequestEvent;
  /** A review was submitted (approved or changes requested). */
  'change_request.reviewed': ChangeRequestEvent & { reviewId: string; status: string };
  'change_request.merged': ChangeRequestEvent & { revisionId: string };
  'comment.posted': OrganizationEvent & { spaceId: string; changeRequestId: string | null; commentId: string };
  'site.published': OrganizationEvent & { siteId: string };
  'git_sync.started': OrganizationEvent & { spaceId: string; direction: string };
  'git_sync.completed': OrganizationEvent & { spaceId: string; direction: string; result: string };
  'translation.completed': OrganizationEvent & { spaceId: string; translationId: string; language: string };
  'openapi_spec.processed': OrganizationEvent & { specSlug: string; versionId: string };
  /** A comment or reply mentioned people (`@name`): the members it tells, who may read the space. */
  'comment.mentioned': OrganizationEvent & { spaceId: string; changeRequestId: string | null; commentId: string; replyId: string | null; mentionedUserIds: string[] };
}

/** Every organization event carries its organization and, when a person caused it, that user. */
export interface OrganizationEvent {
  organizationId: string;
  /** The user who caused it; null for the system (a job). */
  actorId: string | null;
}

export interface SpaceEvent extends OrganizationEvent {
  spaceId: string;
  title: string;
}

export interface ChangeRequestEvent extends OrganizationEvent {
  spaceId: string;
  changeRequestId: string;
  number: number;
}

export type OrganizationEventName = keyof OrganizationEventMap;

/** The event names, in the order the API documents them (webhooks subscribe to these). */
export const ORGANIZATION_EVENTS = [
  'space.created',
  'space.updated',
  'space.deleted',
  'change_request.opened',
  'change_request.reviewed',
  'change_request.merged',
  'comment.posted',
  'site.published',
  'git_sync.started',
  'git_sync.completed',
  'translation.completed',
  'openapi_spec.processed',
  'comment.mentioned',
] as const satisfies readonly OrganizationEventName[];

export interface ChangeRequestMerging {
  spaceId: string;
  changeRequestId: string;
  /** The merge request's log, for what its listeners' work has to say. */
  log: { warn(object: object, message: string): void };
}

export interface SpaceContentChanged {
  spaceId: string;
  /** The new current revision. */
  revisionId: string;
  /** The revision it replaced; null for a space that starts with content (a duplicate). */
  previousRevisionId: string | null;
}

// Every event name is listed above: a name added to the map and not to the list fails the type-check here.
const everyEventListed: Exclude<OrganizationEventName, (typeof ORGANIZATION_EVENTS)[number]> extends never ? true : never = true;
void everyEventListed;
