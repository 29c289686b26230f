import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, NoContent } from '../../http/schemas.ts';
import { ChangeRequestPageParams, ChangeRequestParams } from '../change-requests/schemas.ts';
import { presentCreatedPage, presentPageWrite } from './presenter.ts';
import { CreatedPageSchema, CreatePageBody, DeletePageQuery, PageWriteSchema, PatchPageBody, SpacePageParams, SpaceParams } from './schemas.ts';
import { createPageIn, deletePageIn, patchPageIn } from './service.ts';
import type { EditTarget } from './target.ts';

const tags = ['page-edits'];
const errors = { ...errorResponses, 423: errorResponses[409] };

const where = {
  changeRequest: {
    base: '/spaces/:spaceId/change-requests/:changeRequestId/content',
    suffix: 'InChangeRequest',
    in: 'the change request (its head moves to the new revision; the space does not change)',
  },
  space: {
    base: '/spaces/:spaceId/content',
    suffix: 'InSpace',
    in: 'the space directly (a live edit: refused with 423 when the space\'s editMode is "locked")',
  },
} as const;

const targetOf = (params: { spaceId: string; changeRequestId?: string }): EditTarget => ({ spaceId: params.spaceId, changeRequestId: params.changeRequestId });

/**
 * Quire's page-editing operations (GitBook's public API has none): create, change and delete a page of a
 * change request or, where the space allows live edits, of the space itself. Bodies are JSON documents
 * written through the one page writer, so Git sees only the lines that changed.
 */
export const pageEditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const kind of ['changeRequest', 'space'] as const) {
    const at = where[kind];
    const params = kind === 'changeRequest' ? ChangeRequestParams : SpaceParams;
    const pageParams = kind === 'changeRequest' ? ChangeRequestPageParams : SpacePageParams;

    app.post(
      `${at.base}/pages`,
      {
        config: { policy: 'space.edit' },
        schema: {
          tags,
          operationId: `createPage${at.suffix}`,
          summary: `Create a page in ${at.in}`,
          description:
            'Edit level. The answer is the page as GET …/content/page/{pageId} gives it (its body as a document) with `revision`, the id of the new revision. A group goes at the top level only; a link needs `href`.',
          params,
          body: CreatePageBody,
          response: { 201: CreatedPageSchema, ...errors },
        },
      },
      async (request, reply) => {
        const written = await createPageIn(request.ctx, targetOf(request.params as { spaceId: string; changeRequestId?: string }), request.body);
        return reply.code(201).send(await presentCreatedPage(request.ctx, written));
      },
    );

    app.patch(
      `${at.base}/page/:pageId`,
      {
        config: { policy: 'space.edit' },
        schema: {
          tags,
          operationId: `updatePage${at.suffix}`,
          summary: `Change a page of ${at.in}: settings, place, body`,
          description:
            'Edit level. `document` replaces the body: it is written over the page\'s Markdown, so blocks it did not change keep their bytes. With `baseRevision`, what changed on the page since then is merged with this edit; when they touch the same lines or settings, 409 and nothing is written. Answers `{ page, revision }`.',
          params: pageParams,
          body: PatchPageBody,
          response: { 200: PageWriteSchema, ...errors },
        },
      },
      async (request) => {
        const { pageId, ...rest } = request.params as { spaceId: string; changeRequestId?: string; pageId: string };
        return presentPageWrite(request.ctx, await patchPageIn(request.ctx, targetOf(rest), pageId, request.body));
      },
    );

    app.delete(
      `${at.base}/page/:pageId`,
      {
        config: { policy: 'space.edit' },
        schema: {
          tags,
          operationId: `deletePage${at.suffix}`,
          summary: `Delete a page (and the pages under it) of ${at.in}`,
          description: 'Edit level. With `baseRevision`, 409 when the page or a page under it changed since that revision.',
          params: pageParams,
          querystring: DeletePageQuery,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        const { pageId, ...rest } = request.params as { spaceId: string; changeRequestId?: string; pageId: string };
        await deletePageIn(request.ctx, targetOf(rest), pageId, request.query.baseRevision);
        return reply.code(204).send();
      },
    );
  }
};
