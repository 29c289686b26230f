import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const commentRoutes: FastifyPluginAsyncTypebox = async () => {};
