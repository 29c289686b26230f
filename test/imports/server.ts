import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A small web site on 127.0.0.1 for import tests: path → [status, content type, body] (or a redirect). */
export type Route = { status?: number; type?: string; body?: string | Buffer; location?: string };

export interface TestSite {
  origin: string;
  /** Paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startSite(routes: Record<string, Route>): Promise<TestSite> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    const route = routes[path];
    if (!route) {
      response.statusCode = 404;
      response.end('Not found');
      return;
    }
    response.statusCode = route.status ?? (route.location ? 302 : 200);
    if (route.location) response.setHeader('location', route.location);
    if (route.type) response.setHeader('content-type', route.type);
    response.end(route.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export const html = (body: string, head = ''): Route => ({ type: 'text/html; charset=utf-8', body: `<!doctype html><html><head>${head}</head><body>${body}</body></html>` });
