import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const spaceRoutes: FastifyPluginAsyncTypebox = async () => {};
