import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/schemas.ts';
import { changeRequestLocation, presentChangeRequest } from '../change-requests/presenter.ts';
import { ChangeRequestSchema, UpdateChangeRequestResult } from '../change-requests/schemas.ts';
import { presentHistory } from './presenter.ts';
import { resolveConflicts } from './resolve.ts';
import { ChangeRequestParams, HistorySchema, ListRevisionsQuery, PageConflictParams, PageConflictSchema, PreviewBlocksBody, PreviewBlocksSchema, ResolveConflictsBody, RestoreRevisionBody, RevisionParams, SpaceParams } from './schemas.ts';
import { getPageConflict, presentPageConflict, previewPageResolution } from './page-conflict.ts';
import { listSpaceHistory, restoreRevision } from './service.ts';

const errors = { ...errorResponses, 423: errorResponses[409] };

/**
 * A space's history, restoring a revision through a change request, and resolving a change request's
 * conflicts with its space: Quire's own operations (GitBook's public API reads one revision at a time).
 */
export const historyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/revisions',
    {
      config: { policy: 'space.view' },
      schema: {
        tags: ['spaces'],
        operationId: 'listRevisions',
        summary: 'The space\'s history, newest first: each revision of its content with who made it, when, and the pages it changed (a Quire addition)',
        description:
          'From the current revision along first parents: revisions made inside change requests are not listed, the merge that brought them in is (`mergedFrom` names the change request). ' +
          '`pages` lists the pages each revision changed from its first parent; read a page before and after with getPageInRevisionById, and every change with getRevisionSemanticChanges.',
        params: SpaceParams,
        querystring: ListRevisionsQuery,
        response: { 200: HistorySchema, ...errorResponses },
      },
    },
    async (request) => presentHistory(await listSpaceHistory(request.ctx, request.params.spaceId, request.query)),
  );

  app.post(
    '/spaces/:spaceId/revisions/:revisionId/restore',
    {
      config: { policy: 'space.edit' },
      schema: {
        tags: ['change-requests'],
        operationId: 'restoreRevision',
        summary: 'Open a change request that brings the space, or one page, back to a revision (edit level; 423 while the space is locked; a Quire addition)',
        description:
          'Nothing in the space changes: the new change request\'s content is the revision\'s (the whole space), or the space\'s with the page `pageId` as it was in the revision (title, settings, text). ' +
          'It is reviewed and merged like any other change request. 400 when the space already has that content.',
        params: RevisionParams,
        body: RestoreRevisionBody,
        response: { 201: ChangeRequestSchema, ...errors },
      },
    },
    async (request, reply) => {
      const view = await restoreRevision(request.ctx, request.params.spaceId, request.params.revisionId, request.body ?? {});
      return reply.code(201).header('location', changeRequestLocation(request.ctx, view.space.id, view.changeRequest.id)).send(presentChangeRequest(request.ctx, view));
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/resolve',
    {
      config: { policy: 'space.edit' },
      schema: {
        tags: ['change-requests'],
        operationId: 'resolveChangeRequestConflicts',
        summary: 'Update the change request from the space, keeping for each conflicting page the version chosen (edit level; 423 while the space is locked; 409 when merged or archived; a Quire addition)',
        description:
          'For pages that mergeChangeRequest or updateChangeRequest answered as conflicts (both sides present): `take` "change-request" keeps the change request\'s version of the page, "space" the space\'s, "edited" the `title` and `markdown` sent. ' +
          'Every other change of both sides is combined as updateChangeRequest combines them. `result` "update": the change request\'s new head (type "update") includes the space\'s current content, so it merges without these conflicts. ' +
          '`result` "conflicts": some conflict was not resolved (listed); nothing changed.',
        params: ChangeRequestParams,
        body: ResolveConflictsBody,
        response: { 200: UpdateChangeRequestResult, ...errors },
      },
    },
    async (request) => resolveConflicts(request.ctx, request.params.spaceId, request.params.changeRequestId, request.body),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/conflicts/page/:pageId',
    {
      config: { policy: 'space.view' },
      schema: {
        tags: ['change-requests'],
        operationId: 'getChangeRequestPageConflict',
        summary: 'A page of the change request and of the space aligned block by block: what each side changed, what merges, and the runs of blocks that conflict (a Quire addition)',
        description:
          'The page\'s text in the change request\'s merge base, the space\'s head and the change request\'s head, cut into top-level blocks (a `{% tag %}` block with all it holds is one) and aligned. ' +
          'A run changed on one side is taken; changed on both, it is merged line by line as mergeChangeRequest merges (`merged`) or it is a `conflict`. Each side of a run comes as Markdown and as a JSON document. ' +
          'Resolve with resolveChangeRequestConflicts, `take: "blocks"`, one choice per conflict in order, and `revisions` as given here. 400 when the change request includes the space\'s content or one side lacks the page.',
        params: PageConflictParams,
        response: { 200: PageConflictSchema, ...errorResponses },
      },
    },
    async (request) => presentPageConflict(await getPageConflict(request.ctx, request.params.spaceId, request.params.changeRequestId, request.params.pageId)),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/conflicts/page/:pageId/preview',
    {
      config: { policy: 'space.view' },
      schema: {
        tags: ['change-requests'],
        operationId: 'previewChangeRequestPageResolution',
        summary: 'The page\'s text as resolving it block by block with these choices would write it; nothing is written (a Quire addition)',
        description: 'The same choices as resolveChangeRequestConflicts\' `blocks`: one per conflicting run. Answers the Markdown and its JSON document. 409 when `revisions` are not the current heads.',
        params: PageConflictParams,
        body: PreviewBlocksBody,
        response: { 200: PreviewBlocksSchema, ...errors },
      },
    },
    async (request) => previewPageResolution(request.ctx, request.params.spaceId, request.params.changeRequestId, request.params.pageId, request.body),
  );
};
