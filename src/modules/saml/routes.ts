import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const samlRoutes: FastifyPluginAsyncTypebox = async () => {};
