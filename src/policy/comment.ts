import { spaceRules, type SpaceActor } from './space.ts';

/**
 * Who may do what with the comments of a space or of a change request, and with their replies. The
 * caller's level on the space decides: `read` and above read the discussion, `comment` and above post,
 * reply, react and resolve; authors change their own words; administrators of the space may delete any
 * comment or reply, authors their own. Members who only reach a space because it is public or unlisted
 * have no level on it and do not see its discussion.
 */

/** The caller on one comment or reply: their standing on the space, and who wrote it. */
export interface CommentActor {
  space: SpaceActor;
  authorId: string;
}

/** The parts of an update, each needing its own right. */
export interface CommentChange {
  body?: boolean;
  resolved?: boolean;
  reactions?: boolean;
}

const isAuthor = (a: CommentActor) => a.space.userId === a.authorId;

export const commentRules = {
  /** Read the comments, replies and commenters of a space or change request. */
  view: (a: SpaceActor) => spaceRules.access(a),
  /** Post a comment, reply to one, react to a comment or reply. */
  post: (a: SpaceActor) => spaceRules.comment(a),
  /** Mark a comment resolved or open again: part of the discussion, open to everyone who may comment. */
  resolve: (a: CommentActor) => spaceRules.comment(a.space),
  react: (a: CommentActor) => spaceRules.comment(a.space),
  /** Change the body: the author, as long as they may still comment. */
  edit: (a: CommentActor) => isAuthor(a) && spaceRules.comment(a.space),
  /** Delete: administrators of the space, or the author while they may still comment. */
  delete: (a: CommentActor) => spaceRules.admin(a.space) || (isAuthor(a) && spaceRules.comment(a.space)),
  /** An update is allowed when every part it asks for is. */
  update: (a: CommentActor, change: CommentChange) =>
    (!change.body || commentRules.edit(a)) && (!change.resolved || commentRules.resolve(a)) && (!change.reactions || commentRules.react(a)),
};

/**
 * The `permissions` object of a comment or reply. `reply` (the client's name) and `react` (the name the
 * client's document requires) say the same thing: the caller may reply and react.
 */
export function commentPermissions(a: CommentActor): { view: boolean; edit: boolean; reply: boolean; react: boolean; delete: boolean } {
  return {
    view: commentRules.view(a.space),
    edit: commentRules.edit(a),
    reply: commentRules.post(a.space),
    react: commentRules.react(a),
    delete: commentRules.delete(a),
  };
}
