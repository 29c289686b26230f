import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { isRoutePolicy, type RoutePolicy } from '../policy/index.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The policy this route checks: a name from src/policy/index.ts, or 'public' / 'authenticated'. */
    policy?: RoutePolicy;
  }
}

/**
 * Fails closed, twice: a route registered without a known policy stops the server at start, and a
 * request that succeeds without its declared policy having been checked is answered with a 500.
 */
export function registerPolicyGuard(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const documentation = route.url.startsWith('/docs') && (route.schema as { hide?: boolean } | undefined)?.hide;
    if (documentation || route.method === 'HEAD') return;
    const policy = route.config?.policy;
    if (!isRoutePolicy(policy)) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no policy (config.policy); every route must.`);
    }
    if (policy === 'public' || policy === 'authenticated') return;
    // Only routes with a policy to check pay for the check.
    const guard = checkedPolicyGuard(policy);
    route.onSend = route.onSend ? [...(Array.isArray(route.onSend) ? route.onSend : [route.onSend]), guard] : [guard];
  });
}

function checkedPolicyGuard(policy: string): onSendHookHandler {
  return (request, reply, payload, done) => {
    if (reply.statusCode >= 400 || request.ctx.checked.has(policy)) return done(null, payload);
    request.log.error({ policy, route: request.routeOptions.url }, 'route answered without checking its policy');
    reply.code(500).type('application/json; charset=utf-8');
    done(null, JSON.stringify({ error: { code: 500, message: 'Something went wrong on the server. The error has been logged.' } }));
  };
}
