import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { adaptiveRoutes } from './adaptive.ts';
import { publishingAuthRoutes } from './publishing-auth.ts';
import { sectionGroupsRoutes } from './section-groups.ts';
import { sectionsRoutes } from './sections.ts';
import { shareLinksRoutes } from './share-links.ts';
import { siteSpacesRoutes } from './site-spaces.ts';
import { sitesRoutes } from './sites.ts';
import { structureRoutes } from './structure.ts';

/** Every route of the sites area: sites, publishing, share links, adaptive content and the structure. */
export const siteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const routes of [sitesRoutes, shareLinksRoutes, publishingAuthRoutes, adaptiveRoutes, sectionsRoutes, sectionGroupsRoutes, siteSpacesRoutes, structureRoutes]) {
    await app.register(routes);
  }
};
