import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { bodyMarkdown } from '../../src/content/documents.ts';
import { findRevision } from '../../src/content/revisions.ts';
import { loadTree } from '../../src/content/tree.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages, manyPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { runJobs } from './support.ts';
import { needs } from '../helpers/system.ts';

/** A toy dictionary: what the local servers "translate" into, word by word, leaving tags alone. */
const WORDS: Record<string, string> = { the: 'die', dog: 'Hund', eats: 'frisst', apple: 'Apfel', read: 'lies', guide: 'Anleitung', body: 'Körper', of: 'von' };

function translateText(text: string): string {
  return text.replace(/(<[^>]*>)|([A-Za-z]+)/g, (_match, tag: string | undefined, word: string | undefined) => (tag ? tag : (WORDS[word!.toLowerCase()] ?? word!)));
}

async function readJson(request: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return String(request.headers['content-type']).includes('x-www-form-urlencoded') ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text);
}

/** What apertium-apy does for /translate: the real apertium command, in HTML mode. */
function apertium(langpair: string, html: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'apy-test-'));
  try {
    writeFileSync(join(folder, 'in.html'), html);
    return execFileSync('apertium', ['-u', '-f', 'html', langpair.replace('|', '-'), join(folder, 'in.html')], { encoding: 'utf8' });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

interface Engine {
  url: string;
  requests: any[];
  failNext: number;
  close(): Promise<void>;
}

/** A small server speaking one engine's API on 127.0.0.1. */
async function engineServer(handle: (path: string, body: any, headers: IncomingMessage['headers']) => { status: number; body: unknown }): Promise<Engine> {
  const engine: Engine = { url: '', requests: [], failNext: 0, close: async () => {} };
  const server: Server = createServer(async (request, response) => {
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    engine.requests.push({ path: request.url, body, headers: request.headers });
    const answer = engine.failNext > 0 ? (engine.failNext--, { status: 503, body: { message: 'Too many requests' } }) : handle(request.url ?? '', body, request.headers);
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  engine.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  engine.close = () => new Promise((resolve) => server.close(() => resolve()));
  return engine;
}

const deepl = () =>
  engineServer((path, body, headers) => {
    if (path !== '/v2/translate') return { status: 404, body: { message: 'Not found' } };
    if (headers.authorization !== 'DeepL-Auth-Key test-key') return { status: 403, body: { message: 'Wrong key' } };
    if (!Array.isArray(body.text) || body.text.length > 50) return { status: 400, body: { message: 'Too many texts' } };
    return { status: 200, body: { translations: body.text.map((text: string) => ({ detected_source_language: body.source_lang, text: translateText(text) })) } };
  });

for (const dialect of dialects) {
  describe(`translating through a DeepL-compatible server [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let engine: Engine;
    before(async () => {
      engine = await deepl();
      t = await createTestApp(dialect, { QUIRE_TRANSLATION_ENGINE: 'deepl', QUIRE_TRANSLATION_URL: engine.url, QUIRE_TRANSLATION_API_KEY: 'test-key' });
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(async () => {
      await t.close();
      await engine.close();
    });

    it('translates in batches of at most 50 texts with XML tag handling, keeping links and marks', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'The dog', markdown: 'The dog eats the **apple**; read the [guide](https://example.com/guide).\n' },
        ...manyPages(60),
      ]);
      const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'de', source: { space: spaceId } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      const translation = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations/${created.body.id}`)).body;
      assert.equal(translation.status, 'completed');
      assert.equal(translation.stats.latestPages, 61);
      const calls = engine.requests.filter((request) => request.path === '/v2/translate');
      assert.ok(calls.length >= 3, `${calls.length} requests`);
      for (const call of calls) {
        assert.ok(call.body.text.length <= 50);
        assert.equal(call.body.tag_handling, 'xml');
        assert.equal(call.body.source_lang, 'EN');
        assert.equal(call.body.target_lang, 'DE');
      }
      const tree = await loadTree(t.ctx, (await findRevision(t.ctx, translation.result.revision))!.root);
      const first = tree.pages[0];
      assert.equal(first.node.title, 'die Hund');
      assert.equal(await bodyMarkdown(t.ctx, first), 'die Hund frisst die **Apfel**; lies die [Anleitung](https://example.com/guide).\n');
    });

    it('suggests names that look like products for the glossary when a translation is created', async () => {
      const { spaceId } = await createSpaceWithPages(
        t.ctx,
        world.organizationId,
        [
          { type: 'document', title: 'Install', markdown: 'Install Rocket.Chat with Node.js, from GitHub or from config.yaml, e.g. on macOS. Then read [Deploy with Docker](docker.md).\n\n```\nFoo.Bar\n```\n' },
          { type: 'document', title: 'Deploy with Docker', markdown: 'Docker it.\n' },
        ],
        { title: 'Rocket.Chat Docs' },
      );
      const glossary = await world.admin.api.put(`/v1/orgs/${world.organizationId}/translations-glossary`, { operations: [{ type: 'insert', translations: { en: 'GitHub', es: 'GitHub' } }] });
      assert.ok(glossary.status < 300, JSON.stringify(glossary.body));
      const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'es', source: { space: spaceId } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const suggested = created.body.glossarySuggestions as string[];
      for (const term of ['Rocket.Chat Docs', 'Rocket.Chat', 'Node.js', 'macOS', 'Deploy with Docker']) assert.ok(suggested.includes(term), `${term} in ${suggested.join(', ')}`);
      for (const term of ['GitHub', 'config.yaml', 'e.g', 'Foo.Bar', 'Install']) assert.ok(!suggested.includes(term), `${term} not in ${suggested.join(', ')}`);
      const read = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations/${created.body.id}`)).body;
      assert.equal(read.glossarySuggestions, undefined, 'only the answer to the create carries them');
      assert.deepEqual(await runJobs(t.ctx, t.clock), [], 'its run is done before the next test counts failures');
    });

    it('keeps a translation pending with the reason while the engine fails, then completes', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Apple', markdown: 'The apple.\n' }]);
      engine.failNext = 1;
      const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'fr', source: { space: spaceId } });
      const failures = await runJobs(t.ctx, t.clock);
      assert.equal(failures.length, 1);
      const pending = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations/${created.body.id}`)).body;
      assert.equal(pending.status, 'pending');
      assert.match(pending.error, /503/);
      t.clock.advance(60 * 60 * 1000);
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      const done = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations/${created.body.id}`)).body;
      assert.equal(done.status, 'completed');
      assert.equal(done.error, undefined);
    });
  });
}

describe('other HTTP engines speak their APIs', () => {
  it('LibreTranslate: its pairs from /languages, html format', async () => {
    const engine = await engineServer((path, body) => {
      if (path === '/languages') return { status: 200, body: [{ code: 'en', name: 'English', targets: ['de', 'en'] }, { code: 'de', name: 'German', targets: ['en'] }] };
      if (path === '/translate') return { status: 200, body: { translatedText: body.q.map((text: string) => translateText(text)) } };
      return { status: 404, body: {} };
    });
    const t = await createTestApp('sqlite', { QUIRE_TRANSLATION_ENGINE: 'libretranslate', QUIRE_TRANSLATION_URL: engine.url });
    try {
      const world = await createWorld(t.ctx, t.app, t.clock);
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Dog', markdown: 'The dog eats.\n' }]);
      const refused = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'fr', source: { space: spaceId } });
      assert.equal(refused.status, 400);
      assert.match(refused.body.error.message, /en → de, de → en/);
      const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'de', source: { space: spaceId } });
      assert.equal(created.status, 201);
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      const call = engine.requests.find((request) => request.path === '/translate');
      assert.equal(call.body.format, 'html');
      const translation = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations/${created.body.id}`)).body;
      const tree = await loadTree(t.ctx, (await findRevision(t.ctx, translation.result.revision))!.root);
      assert.equal(await bodyMarkdown(t.ctx, tree.pages[0]), 'die Hund frisst.\n');
    } finally {
      await t.close();
      await engine.close();
    }
  });

  it('OpenAI-compatible: a JSON array through chat completions, with the instructions', async () => {
    const engine = await engineServer((path, body) => {
      if (path !== '/v1/chat/completions') return { status: 404, body: {} };
      const texts = JSON.parse(body.messages[1].content) as string[];
      return { status: 200, body: { choices: [{ message: { role: 'assistant', content: JSON.stringify(texts.map(translateText)) } }] } };
    });
    const t = await createTestApp('sqlite', { QUIRE_TRANSLATION_ENGINE: 'openai', QUIRE_TRANSLATION_URL: engine.url, QUIRE_TRANSLATION_MODEL: 'llama3', QUIRE_TRANSLATION_API_KEY: 'k' });
    try {
      const world = await createWorld(t.ctx, t.app, t.clock);
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Dog', markdown: 'The dog eats the `apple`.\n' }]);
      const instructions = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Address the reader informally.', marks: [] }] }] }] };
      const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'de', source: { space: spaceId }, instructions });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      const call = engine.requests.find((request) => request.path === '/v1/chat/completions');
      assert.equal(call.body.model, 'llama3');
      assert.equal(call.headers.authorization, 'Bearer k');
      assert.match(call.body.messages[0].content, /Address the reader informally/);
      const translation = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations/${created.body.id}`)).body;
      const tree = await loadTree(t.ctx, (await findRevision(t.ctx, translation.result.revision))!.root);
      assert.equal(await bodyMarkdown(t.ctx, tree.pages[0]), 'die Hund frisst die `apple`.\n', 'the code span is never sent');
    } finally {
      await t.close();
      await engine.close();
    }
  });
});

describe('Apertium through an apertium-apy server', { skip: needs('apertium') }, () => {
  it('lists its pairs and translates in HTML mode', async () => {
    const engine = await engineServer((path, body) => {
      if (path === '/listPairs') return { status: 200, body: { responseData: [{ sourceLanguage: 'eng', targetLanguage: 'spa' }], responseDetails: null, responseStatus: 200 } };
      if (path === '/translate') return { status: 200, body: { responseData: { translatedText: apertium(body.langpair, body.q) }, responseDetails: null, responseStatus: 200 } };
      return { status: 404, body: {} };
    });
    const t = await createTestApp('sqlite', { QUIRE_TRANSLATION_ENGINE: 'apertium', QUIRE_TRANSLATION_URL: engine.url });
    try {
      const world = await createWorld(t.ctx, t.app, t.clock);
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Dog', markdown: 'The dog eats the **apple**.\n' }]);
      const refused = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'fr', source: { space: spaceId } });
      assert.match(refused.body.error.message, /The pairs it has: en → es\./);
      const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'es', source: { space: spaceId } });
      assert.equal(created.status, 201);
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      const call = engine.requests.find((request) => request.path === '/translate');
      assert.equal(call.body.format, 'html');
      assert.equal(call.body.langpair, 'eng|spa');
      const translation = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations/${created.body.id}`)).body;
      const tree = await loadTree(t.ctx, (await findRevision(t.ctx, translation.result.revision))!.root);
      assert.equal(await bodyMarkdown(t.ctx, tree.pages[0]), 'El perro come la **manzana**.\n');
    } finally {
      await t.close();
      await engine.close();
    }
  });
});

describe('without an engine', () => {
  it('refuses to create a translation, saying what the operator can do', async () => {
    const t = await createTestApp('sqlite', { QUIRE_TRANSLATION_ENGINE: 'none' });
    try {
      const world = await createWorld(t.ctx, t.app, t.clock);
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Dog', markdown: 'The dog.\n' }]);
      const refused = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'es', source: { space: spaceId } });
      assert.equal(refused.status, 400);
      assert.match(refused.body.error.message, /No translation engine is configured/);
    } finally {
      await t.close();
    }
  });
});
