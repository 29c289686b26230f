import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const memberRoutes: FastifyPluginAsyncTypebox = async () => {};
