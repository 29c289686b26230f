import type { Context } from '../../context.ts';
import { spacePermissions } from '../../policy/space.ts';
import type { DefaultLevel, MemberSpace, Space } from './schemas.ts';
import type { SpaceView, MemberSpaceView } from './views.ts';


export function spaceLocation(ctx: Pick<Context, 'config'>, id: string): string {
  return `${ctx.config.publicUrl}/v1/spaces/${id}`;
}

/** Where the reader serves a space's published content. */
export function spacePublishedUrl(ctx: Pick<Context, 'config'>, id: string): string {
  return `${ctx.config.publicUrl}/s/${id}`;
}

/** A stored level as the API shows it: 'none' (nobody but administrators) is null. */
export function presentLevel(stored: string): DefaultLevel {
  return stored === 'none' ? null : (stored as DefaultLevel);
}

/**
 * The API object of a space. Quire has no separate editing app, so `urls.app` is the API address;
 * `published` is where the reader serves it (every visibility but private), `public` the same address
 * when anyone may read it.
 */
export function presentSpace(ctx: Pick<Context, 'config'>, { space, actor }: SpaceView): Space {
  const location = spaceLocation(ctx, space.id);
  const presented: Space = {
    object: 'space',
    id: space.id,
    type: 'document',
    title: space.title,
    emoji: space.emoji ?? '',
    visibility: space.visibility as Space['visibility'],
    createdAt: space.created_at,
    updatedAt: space.updated_at,
    editMode: space.edit_mode as Space['editMode'],
    urls: { location, app: location },
    organization: space.organization_id,
    revision: space.revision_id,
    defaultLevel: presentLevel(space.default_level),
    comments: space.comments,
    changeRequests: space.change_requests,
    changeRequestsOpen: space.change_requests_open,
    changeRequestsDraft: space.change_requests_draft,
    permissions: spacePermissions(actor),
  };
  if (space.visibility !== 'private') presented.urls.published = spacePublishedUrl(ctx, space.id);
  if (space.visibility === 'public') presented.urls.public = spacePublishedUrl(ctx, space.id);
  if (space.icon) presented.urls.icon = space.icon;
  if (space.collection_id) presented.parent = space.collection_id;
  if (space.language) presented.language = space.language as Space['language'];
  if (space.deleted_at) presented.deletedAt = space.deleted_at;
  if (space.git_sync) presented.gitSync = JSON.parse(space.git_sync) as Space['gitSync'];
  return presented;
}


export function presentMemberSpace(ctx: Pick<Context, 'config'>, view: MemberSpaceView): MemberSpace {
  return { permission: view.permission, space: presentSpace(ctx, view) };
}
