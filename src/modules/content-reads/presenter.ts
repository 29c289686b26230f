import type { Context } from '../../context.ts';
import type { StoredReusableContent } from '../../content/reusable-contents.ts';
import { presentUser } from '../users/presenter.ts';
import type { Contributor, ReusableContent } from './schemas.ts';
import type { ContributorView } from './service.ts';

export function presentContributor(ctx: Pick<Context, 'config'>, view: ContributorView): Contributor {
  return { user: presentUser(ctx, view.user), count: view.count, updatedAt: view.updatedAt };
}

export function presentReusableContent(content: StoredReusableContent, metadata = true): ReusableContent {
  const presented: ReusableContent = { id: content.id, title: content.title };
  if (content.body) presented.document = content.body;
  if (metadata && content.git) presented.git = content.git;
  return presented;
}
