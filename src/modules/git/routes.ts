import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replyNoContent, replyRemoval } from '../../http/replies.ts';
import { errorResponses, removalResponses } from '../../http/schemas.ts';
import { presentOperation } from './presenter.ts';
import { ExportGitBody, GitOperationsSchema, GitSyncStateSchema, ImportGitBody, ListOperationsQuery, SpaceParams } from './schemas.ts';
import { getGitInfo, listGitOperations, removeGitInstallation, requestGitExport, requestGitImport } from './service.ts';
import { NoContent } from '../../http/schemas.ts';
import { GitSyncConfigSchema, PutGitSyncBody, WebhookAnswerSchema, WebhookParams } from './schemas.ts';
import { deleteGitSync, getGitSync, putGitSync, receiveWebhook } from './sync.ts';

const tags = ['space-git'];
const errors = { ...errorResponses, 423: errorResponses[409] };

/** Git Sync of a space (docs/api.md#git-sync): imports and exports run as jobs; their operations can be read. */
export const gitRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/spaces/:spaceId/git/import',
    {
      config: { policy: 'space.triggerGitSync' },
      schema: { tags, operationId: 'importGitRepository', summary: 'Import a branch of a Git repository (a job)', params: SpaceParams, body: ImportGitBody, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await requestGitImport(request.ctx, request.params.spaceId, request.body);
      return replyNoContent(reply);
    },
  );

  app.post(
    '/spaces/:spaceId/git/export',
    {
      config: { policy: 'space.triggerGitSync' },
      schema: { tags, operationId: 'exportToGitRepository', summary: 'Export the space to a branch of a Git repository as one commit (a job)', params: SpaceParams, body: ExportGitBody, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await requestGitExport(request.ctx, request.params.spaceId, request.body);
      return replyNoContent(reply);
    },
  );

  app.get(
    '/spaces/:spaceId/git/info',
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'getSpaceGitInfo', summary: "The space's Git Sync: repository, provider, URL; 404 before any sync", params: SpaceParams, response: { 200: GitSyncStateSchema, ...errorResponses } },
    },
    async (request) => getGitInfo(request.ctx, request.params.spaceId),
  );

  app.delete(
    '/spaces/:spaceId/git/legacy-installation',
    {
      config: { policy: 'space.triggerGitSync' },
      schema: { tags, operationId: 'deleteLegacyGitInstallation', summary: "Remove the space's stored Git Sync configuration (205; 204 when there was none)", params: SpaceParams, response: { ...removalResponses, ...errorResponses } },
    },
    async (request, reply) => replyRemoval(reply, await removeGitInstallation(request.ctx, request.params.spaceId)),
  );

  app.get(
    '/spaces/:spaceId/git/operations',
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'listGitOperations', summary: "Quire's own: the space's recent Git operations, newest first", params: SpaceParams, querystring: ListOperationsQuery, response: { 200: GitOperationsSchema, ...errorResponses } },
    },
    async (request) => {
      const rows = await listGitOperations(request.ctx, request.params.spaceId, request.query.limit ?? 20);
      return { count: rows.length, items: rows.map(presentOperation) };
    },
  );

  // Automatic sync: a space kept in step with a branch by itself.
  app.put(
    '/spaces/:spaceId/git/sync',
    {
      config: { policy: 'space.triggerGitSync' },
      schema: { tags, operationId: 'putGitSync', summary: "Quire's own: keep the space and a branch in step by themselves (webhook URL and secret answered)", params: SpaceParams, body: PutGitSyncBody, response: { 200: GitSyncConfigSchema, ...errorResponses } },
    },
    async (request) => putGitSync(request.ctx, request.params.spaceId, request.body),
  );

  app.get(
    '/spaces/:spaceId/git/sync',
    {
      config: { policy: 'space.triggerGitSync' },
      schema: { tags, operationId: 'getGitSync', summary: "Quire's own: the space's automatic sync, without secrets; 404 when there is none", params: SpaceParams, response: { 200: GitSyncConfigSchema, ...errorResponses } },
    },
    async (request) => getGitSync(request.ctx, request.params.spaceId),
  );

  app.delete(
    '/spaces/:spaceId/git/sync',
    {
      config: { policy: 'space.triggerGitSync' },
      schema: { tags, operationId: 'deleteGitSync', summary: "Quire's own: stop the automatic sync (205; 204 when there was none)", params: SpaceParams, response: { ...removalResponses, ...errorResponses } },
    },
    async (request, reply) => replyRemoval(reply, await deleteGitSync(request.ctx, request.params.spaceId)),
  );
};

/**
 * POST /v1/git/webhooks/{syncId}: push events from GitHub and GitLab. Registered outside the token-checked
 * /v1 scope (hosts send no API token; the signature made with the sync's secret is checked instead), and
 * the body is kept raw, since GitHub signs the bytes it sent.
 */
export const gitWebhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', 'application/x-www-form-urlencoded'], { parseAs: 'buffer', bodyLimit: 25 * 1024 * 1024 }, (_request, body, done) => done(null, body));
  app.post(
    '/git/webhooks/:syncId',
    {
      config: { policy: 'public' },
      schema: { tags, operationId: 'receiveGitWebhook', summary: "Quire's own: a Git host's push event (GitHub X-Hub-Signature-256, GitLab X-Gitlab-Token)", security: [], params: WebhookParams, response: { 200: WebhookAnswerSchema, 202: WebhookAnswerSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const answer = await receiveWebhook(request.ctx, request.params.syncId, request.headers, raw);
      return reply.code(answer.status).send(answer.body);
    },
  );
};
