import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { replyNoContent } from '../../../http/replies.ts';
import { errorResponses, ListOf, NoContent } from '../../../http/schemas.ts';
import { aggregateEvents, trackEvents, visitorSegments, type AggregateQuery, type TrackedEvent } from '../insights.ts';
import { SiteParams } from '../schemas.ts';

const tags = ['site-insights'];

const Event = Type.Unsafe<TrackedEvent>({
  type: 'object',
  required: ['type', 'location'],
  additionalProperties: true,
  properties: {
    type: { type: 'string', maxLength: 64 },
    location: { type: 'object', required: ['url'], additionalProperties: true, properties: { url: { type: 'string', format: 'uri', maxLength: 2048 } } },
    timestamp: { type: 'string', format: 'date-time' },
    query: { type: 'string', maxLength: 512 },
    resultsCount: { type: 'integer', minimum: 0 },
    feedback: { type: 'object', properties: { rating: { type: 'string', enum: ['bad', 'ok', 'good'] } } },
  },
});
const TrackBody = Type.Object({ events: Type.Array(Event, { maxItems: 500 }) });
const AggregateBody = Type.Unsafe<AggregateQuery>({
  type: 'object',
  required: ['range'],
  additionalProperties: true,
  properties: {
    select: { type: 'array', items: { type: 'object', required: ['column'] } },
    where: { type: 'array', items: { type: 'object', required: ['column', 'values'] } },
    groupBy: { type: 'array', items: { type: 'object', required: ['column'] } },
    limit: { type: 'integer', minimum: 1, maximum: 1000 },
  },
});
const AggregateResult = Type.Object({ columns: Type.Array(Type.Unsafe<object>({ type: 'object', additionalProperties: true })) });
const Segment = Type.Object({ title: Type.String(), claims: Type.Unsafe<object>({ type: 'object', additionalProperties: true }), events: Type.Number(), visitors: Type.Number(), sessions: Type.Number() });

export const insightsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/insights/events',
    {
      config: { policy: 'site.view' },
      schema: { tags, operationId: 'trackEventsInSiteById', summary: 'Record events of a site\'s readers (nothing personal is kept: see docs/api.md)', params: SiteParams, body: TrackBody, response: { 204: NoContent, ...errorResponses } },
    },
    async (request, reply) => {
      await trackEvents(request.ctx, request.params.organizationId, request.params.siteId, request.body.events, { address: request.ip, userAgent: String(request.headers['user-agent'] ?? '') });
      return replyNoContent(reply);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/insights/events/aggregate',
    {
      config: { policy: 'site.view' },
      schema: { tags, operationId: 'aggregateSiteEvents', summary: 'Count the events of a site by page, day, query, feedback…', params: SiteParams, body: AggregateBody, response: { 200: AggregateResult, ...errorResponses } },
    },
    async (request) => aggregateEvents(request.ctx, request.params.organizationId, request.params.siteId, request.body),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/insights/visitor-segments',
    {
      config: { policy: 'site.view' },
      schema: { tags, operationId: 'listSiteVisitorSegments', summary: 'Visitor segments: one, all visitors (Quire keeps no profiles)', params: SiteParams, response: { 200: ListOf(Segment), ...errorResponses } },
    },
    async (request) => {
      const items = await visitorSegments(request.ctx, request.params.organizationId, request.params.siteId);
      return { items, count: items.length };
    },
  );
};
