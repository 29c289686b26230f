// The baseline of the published reader: a bare Fastify answering every request with the same bytes, read
// once from the file given as the second argument, as text/html. Port first.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = readFileSync(process.argv[3]);
const app = Fastify({ logger: false });
app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(body));
await app.listen({ host: '127.0.0.1', port: Number(process.argv[2]) });
process.stdout.write('ready\n');
