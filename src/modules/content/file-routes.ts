import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** File downloads by signed URL, outside /v1 (a browser following a downloadURL sends no token). */
export const contentFileRoutes: FastifyPluginAsyncTypebox = async () => {};
