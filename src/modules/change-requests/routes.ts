import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const changeRequestRoutes: FastifyPluginAsyncTypebox = async () => {};
