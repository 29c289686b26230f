import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A description server on 127.0.0.1 whose answers a test changes as it goes: path → handler. */
export type Answer = (response: http.ServerResponse) => void;

export interface SpecServer {
  origin: string;
  routes: Map<string, Answer>;
  requests: string[];
  close(): Promise<void>;
}

export const send = (body: string | Buffer, type = 'application/json', status = 200): Answer => (response) => {
  response.statusCode = status;
  response.setHeader('content-type', type);
  response.end(body);
};

/** Answers after `ms` (longer than the fetch limit the test sets). */
export const slow = (ms: number, body: string): Answer => (response) => {
  const timer = setTimeout(() => send(body)(response), ms);
  response.on('close', () => clearTimeout(timer));
};

export async function startSpecServer(): Promise<SpecServer> {
  const routes = new Map<string, Answer>();
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    const answer = routes.get(path);
    if (answer) return answer(response);
    response.statusCode = 404;
    response.end('Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    routes,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
