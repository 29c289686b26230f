// The ceiling of a read: a bare Fastify answering each of Quire's captured answers with the very same status,
// response headers and body bytes, read once from the files of a manifest (bench/bytes.ts writes it), on the
// same paths. Port first, manifest file second. Node adds what it adds for any server (Date, Connection,
// Keep-Alive with Fastify's default timeout, as Quire's answers carry) and Fastify the Content-Length.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const answers = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const app = Fastify({ logger: false });
for (const answer of answers) {
  const body = readFileSync(answer.file);
  app.get(answer.path, async (_request, reply) => reply.code(answer.status).headers(answer.headers).send(body));
}
await app.listen({ host: '127.0.0.1', port: Number(process.argv[2]) });
process.stdout.write('ready\n');
