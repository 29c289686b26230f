import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const teamRoutes: FastifyPluginAsyncTypebox = async () => {};
