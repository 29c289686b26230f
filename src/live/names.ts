import { BadRequest } from '../errors.ts';

/**
 * A live document's name: `organization/space/change request/page`, the ids as the API gives them. The
 * organization is part of the name for readability in logs and Redis keys; access is decided by the space.
 */
export interface LiveName {
  key: string;
  organizationId: string;
  spaceId: string;
  changeRequestId: string;
  pageId: string;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export function parseLiveName(name: string): LiveName {
  const parts = name.split('/');
  if (parts.length !== 4 || !parts.every((part) => ID.test(part))) {
    throw new BadRequest(`A live document is named "organization/space/changeRequest/page" (a page) or "organization/space/changeRequest" (the change request's presence) with the ids the API gives (letters, digits, "-" and "_"); got ${JSON.stringify(name.slice(0, 200))}.`);
  }
  const [organizationId, spaceId, changeRequestId, pageId] = parts;
  return { key: name, organizationId, spaceId, changeRequestId, pageId };
}

/**
 * The presence channel of a change request: `organization/space/changeRequest`, a document with no content
 * that the workspace opens beside a page's, where each browser's awareness says which page it is on (the
 * avatars in the page tree). Read-only for everyone; access is the change request's, like its pages'.
 */
export interface PresenceName {
  key: string;
  organizationId: string;
  spaceId: string;
  changeRequestId: string;
}

/** The presence channel `name` names, or null when it names something else (a page's document). */
export function presenceName(name: string): PresenceName | null {
  const parts = name.split('/');
  if (parts.length !== 3 || !parts.every((part) => ID.test(part))) return null;
  const [organizationId, spaceId, changeRequestId] = parts;
  return { key: name, organizationId, spaceId, changeRequestId };
}
