import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createContext, type AppServices, type Context } from './context.ts';
import { TokenAuthenticator } from './http/auth.ts';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/errors.ts';
import { registerBodyParsing } from './http/body-parsing.ts';
import { registerLingeringClose } from './http/lingering-close.ts';
import { refuseControlCharacters } from './http/text-rules.ts';
import { loggerOptions, requestLogger } from './http/logging.ts';
import { registerPolicyGuard } from './http/policy-guard.ts';
import { healthRoutes } from './http/health.ts';
import { serializerCompiler, validatorCompiler } from './http/validation.ts';
import { createServices, type ServiceOptions } from './services.ts';
import { AccessWrites, accessTransactions, watchExternalWrites } from './db/memo.ts';
import { organizationRoutes } from './modules/orgs/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { favoriteRoutes } from './modules/favorites/routes.ts';
import { memberRoutes } from './modules/members/routes.ts';
import { teamRoutes } from './modules/teams/routes.ts';
import { samlRoutes } from './modules/saml/routes.ts';
import { oidcRoutes } from './modules/oidc/routes.ts';
import { inviteRoutes } from './modules/invites/routes.ts';
import { spaceRoutes } from './modules/spaces/routes.ts';
import { collectionRoutes } from './modules/collections/routes.ts';
import { contentRoutes } from './modules/content/routes.ts';
import { contentFileRoutes } from './modules/content/file-routes.ts';
import { pdfFileRoutes, pdfRoutes } from './modules/pdf/routes.ts';
import { changeRequestRoutes } from './modules/change-requests/routes.ts';
import { changeRequestContentRoutes } from './modules/change-request-content/routes.ts';
import { pageEditRoutes } from './modules/page-edits/routes.ts';
import { commentRoutes } from './modules/comments/routes.ts';
import { searchRoutes } from './modules/search/routes.ts';
import { linkRoutes } from './modules/links/routes.ts';
import { importRoutes } from './modules/imports/routes.ts';
import { siteRoutes } from './modules/sites/routes/index.ts';
import { gitRoutes, gitWebhookRoutes } from './modules/git/routes.ts';
import { publishedRoutes } from './published/routes.ts';
import { workspaceRoutes } from './workspace/routes.ts';
import { registerAuditTrail } from './audit/http.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { auditLogRoutes } from './modules/audit/routes.ts';
import { trashRoutes } from './modules/trash/routes.ts';
import { webhookRedeliverRoutes } from './modules/webhooks/redeliver.ts';
import { Lifecycle } from './operations/lifecycle.ts';
import { Metrics } from './operations/metrics.ts';
import { registerRateLimit } from './operations/rate-limit.ts';
import { metricsRoutes, requestMetrics } from './operations/routes.ts';
import { readerRoutes } from './modules/reader/routes/index.ts';
import { mcpRoutes } from './mcp/routes.ts';
import { translationRoutes } from './modules/translations/routes.ts';
import { sharingRoutes } from './modules/sharing/routes.ts';
import { reviewRoutes } from './modules/reviews/routes.ts';
import { changeRoutes } from './modules/changes/routes.ts';
import { historyRoutes } from './modules/history/routes.ts';
import { contentReadRoutes } from './modules/content-reads/routes.ts';
import { openAPIRoutes } from './modules/openapi/routes.ts';
import { sessionRoutes } from './modules/auth/session-routes.ts';
import { accountApiRoutes } from './modules/auth/account-api-routes.ts';
import { signInPageRoutes } from './modules/auth/page-routes.ts';
import { accountRoutes } from './modules/auth/account-routes.ts';
import { passkeyRoutes } from './modules/auth/passkey-routes.ts';
import { publishedOpenAPIRoutes } from './modules/openapi/published-routes.ts';
import { ssoRoutes } from './sso/routes.ts';
import { fontFileRoutes, storageUploadRoutes } from './modules/fonts/routes.ts';
import { fileUploadRoutes } from './modules/uploads/routes.ts';
import { sitePreviewRoutes } from './modules/site-preview/routes.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import type { DestinationStream } from 'pino';
import { LiveServer } from './live/server.ts';

declare module 'fastify' {
  interface FastifyRequest {
    ctx: Context;
  }
  interface FastifyInstance {
    /** The services every Context of this app is made from (the job runner uses them too). */
    services: AppServices;
    /** This process's Prometheus metrics (GET /metrics). */
    metrics: Metrics;
    /** Whether this process is shutting down (then /readyz answers 503). */
    lifecycle: Lifecycle;
    /** The API-token resolver and its per-process cache (src/http/auth.ts). */
    tokens: TokenAuthenticator;
    /** The one mail channel (src/mail/): magic links, invites, password resets; `enabled` false without QUIRE_SMTP_URL. */
    mailer: Mailer;
  }
}

export interface AppOptions extends ServiceOptions {
  /** false silences the request log (tests). */
  logger?: boolean;
  /** Where the log goes instead of stdout (tests that read what was logged). */
  logStream?: DestinationStream;
}

export const VERSION = '0.1.0';

/** Builds the Quire HTTP app (without listening): the only place plugins and routes are wired. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger === false ? false : { ...loggerOptions(config.logLevel), ...(options.logStream ? { stream: options.logStream } : {}) },
    // Without a logger Fastify gives every request the app's own (silent) one; with one, made when first used.
    ...(options.logger === false ? {} : { childLoggerFactory: requestLogger }),
    bodyLimit: config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true },
    clientErrorHandler,
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerBodyParsing(app);
  registerLingeringClose(app, config.bodyLimit);
  app.addHook('preValidation', refuseControlCharacters);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Writes to the tables that decide access are seen as they are made, so access read from memory
  // (src/db/memo.ts) is forgotten at once.
  const services: AppServices = { ...createServices({ ...options, database: { ...database, db: database.db.withPlugin(new AccessWrites()) } }), transactionWatch: accessTransactions };
  if (database.dataVersion) {
    const unwatch = watchExternalWrites(database.dataVersion);
    app.addHook('onClose', async () => {
      unwatch();
    });
  }
  app.decorate('services', services);
  app.decorateRequest('ctx', null as unknown as Context);
  app.addHook('onRequest', (request, _reply, done) => {
    request.ctx = createContext(services, null, database.dataVersion ? {} : undefined);
    done();
  });

  registerErrorHandling(app, database.dialect);
  registerPolicyGuard(app);
  // A write to a change request answered by this process: its live server compares the heads of the change
  // requests open here at once (decision 0140), rather than at its next head poll (within a second), so a tree
  // change reaches the pages open in this process sooner; with Redis it also sends the other processes a notice
  // naming the change request, and each compares at once too. Git Sync and the CLI still wait for the poll; the
  // comparison reads the database, so an early one is only ever an extra one. The hook is added to those
  // routes alone (every other request pays nothing for it).
  let live: LiveServer | null = null;
  const compareTrees = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (live && reply.statusCode < 400) live.treeChanged((request.params as { changeRequestId?: string } | undefined)?.changeRequestId);
    done();
  };
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!route.url.includes('/change-requests/') || methods.every((method) => method === 'GET' || method === 'HEAD')) return;
    route.onResponse = [route.onResponse ?? []].flat().concat(compareTrees);
  });
  const metrics = new Metrics(database.db, () => services.clock.now());
  app.decorate('metrics', metrics);
  app.decorate('lifecycle', new Lifecycle());
  await app.register(requestMetrics(metrics));
  await registerRateLimit(app, config, database.db, database.dialect);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Quire API', version: VERSION, description: 'The JSON API of Quire. Authenticate with "Authorization: Bearer <token>", or, from a browser signed in to Quire, with its session cookie (writes then carry the header X-CSRF-Token: see GET /auth/session).' },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true }, staticCSP: true });

  // The token cache, reachable by the route that revokes a token so this process forgets it at once.
  const tokens = new TokenAuthenticator(config.tokenCacheSeconds);
  app.decorate('tokens', tokens);
  await app.register(healthRoutes, { database });
  await app.register(
    async (v1) => {
      v1.addHook('onRequest', tokens.onRequest);
      registerAuditTrail(v1);
      await v1.register(userRoutes);
      await v1.register(organizationRoutes);
      await v1.register(memberRoutes);
      await v1.register(teamRoutes);
      await v1.register(samlRoutes);
      await v1.register(oidcRoutes);
      await v1.register(inviteRoutes);
      await v1.register(spaceRoutes);
      await v1.register(collectionRoutes);
      await v1.register(contentRoutes);
      await v1.register(changeRequestRoutes);
      await v1.register(changeRequestContentRoutes);
      await v1.register(pageEditRoutes);
      await v1.register(commentRoutes);
      await v1.register(searchRoutes);
      await v1.register(linkRoutes);
      await v1.register(importRoutes);
      await v1.register(pdfRoutes);
      await v1.register(siteRoutes);
      await v1.register(webhookRoutes);
      await v1.register(auditLogRoutes);
      await v1.register(readerRoutes);
      await v1.register(translationRoutes);
      await v1.register(sharingRoutes);
      await v1.register(reviewRoutes);
      await v1.register(changeRoutes);
      await v1.register(historyRoutes);
      await v1.register(contentReadRoutes);
      await v1.register(gitRoutes);
      await v1.register(openAPIRoutes);
      await v1.register(accountApiRoutes);
      await v1.register(storageUploadRoutes);
      await v1.register(fileUploadRoutes);
      await v1.register(sitePreviewRoutes);
      await v1.register(trashRoutes);
      await v1.register(webhookRedeliverRoutes);
      await v1.register(favoriteRoutes);
    },
    { prefix: '/v1' },
  );
  // Git hosts' push events, signed with the sync's secret instead of an API token
  await app.register(gitWebhookRoutes, { prefix: '/v1' });
  await app.register(sessionRoutes);
  await app.register(signInPageRoutes);
  await app.register(accountRoutes);
  await app.register(passkeyRoutes);
  await app.register(contentFileRoutes);
  await app.register(pdfFileRoutes);
  await app.register(workspaceRoutes);
  await app.register(publishedRoutes);
  await app.register(metricsRoutes, { metrics, config });
  await app.register(mcpRoutes);
  await app.register(publishedOpenAPIRoutes);
  await app.register(fontFileRoutes);
  const mailer = createMailer(config);
  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => mailer.close());
  app.addHook('onReady', async () => {
    if (!mailer.enabled) {
      app.log.info('Mail is off (QUIRE_SMTP_URL is not set): sign-in links by e-mail are not offered, and invite and password-reset links are passed on by an administrator.');
    }
  });
  await app.register(ssoRoutes, { mailer });
  // Live co-editing: a WebSocket on this port (src/live/); documents are written before the server closes.
  const liveServer = new LiveServer(services, tokens, app.log, metrics.registry);
  live = liveServer;
  liveServer.attach(app.server);
  app.addHook('preClose', async () => liveServer.close());
  return app;
}
