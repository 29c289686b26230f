import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const inviteRoutes: FastifyPluginAsyncTypebox = async () => {};
