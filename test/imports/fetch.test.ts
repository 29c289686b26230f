import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { checkDestination, specialRange, type Resolver } from '../../src/net/addresses.ts';
import { safeFetch, type FetchOptions, type RawResponse, type Transport } from '../../src/net/fetch.ts';
import { DEFAULT_LIMITS } from '../../src/imports/limits.ts';
import { checkImportUrl, readDataUrl } from '../../src/imports/source.ts';
import { loadImport } from '../../src/imports/index.ts';
import { loadConfig } from '../../src/config.ts';
import { BadRequest } from '../../src/errors.ts';
import { memoryBlobs } from './memory.ts';

const refused = (words: string | RegExp) => (error: unknown) => {
  assert.ok(error instanceof BadRequest, String(error));
  assert.match(error.message, typeof words === 'string' ? new RegExp(words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : words);
  return true;
};

const resolver = (table: Record<string, string[]>): Resolver => async (host) => {
  const addresses = table[host];
  if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const answer = (status: number, headers: Record<string, string> = {}, body = ''): RawResponse => ({
  status,
  statusText: '',
  headers,
  body: (async function* () {
    if (body) yield Buffer.from(body);
  })(),
  discard: () => {},
});

const options = (extra: Partial<FetchOptions> = {}): FetchOptions => ({ allowPrivate: false, maxBytes: 1024, maxRedirects: 5, signal: new AbortController().signal, ...extra });

describe('import address checks', () => {
  it('names the special range of loopback, private, link-local, unique-local, CGNAT and mapped addresses; public ones have none', () => {
    const cases: Array<[string, string | null]> = [
      ['127.0.0.1', 'loopback'], ['127.8.9.10', 'loopback'], ['10.0.0.1', 'private'], ['172.16.5.4', 'private'], ['192.168.0.1', 'private'],
      ['169.254.169.254', 'linkLocal'], ['100.64.0.1', 'carrierGradeNat'], ['0.0.0.0', 'unspecified'], ['224.0.0.1', 'multicast'],
      ['::1', 'loopback'], ['fe80::1', 'linkLocal'], ['fd00:ec2::254', 'uniqueLocal'], ['::ffff:10.1.2.3', 'private'], ['::', 'unspecified'],
      ['93.184.216.34', null], ['8.8.8.8', null], ['2606:4700:4700::1111', null],
    ];
    for (const [address, range] of cases) assert.equal(specialRange(address), range, address);
  });

  it('checks every address a name resolves to', async () => {
    const resolve = resolver({ 'docs.example': ['93.184.216.34'], 'mixed.example': ['93.184.216.34', '10.0.0.7'], 'local.example': ['127.0.0.1'] });
    assert.deepEqual(await checkDestination(new URL('https://docs.example/a'), { allowPrivate: false, resolver: resolve }), { address: '93.184.216.34', family: 4 });
    await assert.rejects(checkDestination(new URL('https://mixed.example/a'), { allowPrivate: false, resolver: resolve }), refused('10.0.0.7 (the address of "mixed.example"), an address in a private network range'));
    await assert.rejects(checkDestination(new URL('https://local.example/a'), { allowPrivate: false, resolver: resolve }), refused('loopback'));
    await assert.rejects(checkDestination(new URL('https://nowhere.example/a'), { allowPrivate: false, resolver: resolve }), refused('could not be found'));
    assert.equal((await checkDestination(new URL('https://local.example/a'), { allowPrivate: true, resolver: resolve })).address, '127.0.0.1');
    await assert.rejects(checkDestination(new URL('http://localhost/'), { allowPrivate: false }), refused('the address of "localhost"'));
    await assert.rejects(checkDestination(new URL('http://[::1]/'), { allowPrivate: false }), refused('loopback'));
    await assert.rejects(checkDestination(new URL('http://0x7f000001/'), { allowPrivate: false }), refused('127.0.0.1'));
  });

  it('checks again after each redirect, and connects to the address it checked', async () => {
    const resolve = resolver({ 'docs.example': ['93.184.216.34'], 'cdn.example': ['93.184.216.35'], 'internal.example': ['192.168.1.10'] });
    const seen: string[] = [];
    const transport = (routes: Record<string, RawResponse>): Transport => async (url, destination) => {
      seen.push(`${url.href} -> ${destination.address}`);
      return routes[url.href] ?? answer(404);
    };
    const good = await safeFetch('https://docs.example/a', options({
      resolver: resolve,
      transport: transport({ 'https://docs.example/a': answer(301, { location: 'https://cdn.example/b' }), 'https://cdn.example/b': answer(200, { 'content-type': 'text/markdown; charset=utf-8' }, '# Hi') }),
    }));
    assert.deepEqual([good.url, good.contentType, good.bytes.toString()], ['https://cdn.example/b', 'text/markdown', '# Hi']);
    assert.deepEqual(seen, ['https://docs.example/a -> 93.184.216.34', 'https://cdn.example/b -> 93.184.216.35']);

    const hops = transport({
      'https://docs.example/to-private': answer(302, { location: 'http://internal.example/admin' }),
      'https://docs.example/to-metadata': answer(307, { location: 'http://169.254.169.254/latest/meta-data/' }),
      'https://docs.example/to-file': answer(302, { location: 'file:///etc/passwd' }),
    });
    seen.length = 0;
    await assert.rejects(safeFetch('https://docs.example/to-private', options({ resolver: resolve, transport: hops })), refused('192.168.1.10 (the address of "internal.example")'));
    await assert.rejects(safeFetch('https://docs.example/to-metadata', options({ resolver: resolve, transport: hops })), refused('169.254.169.254, an address in a link-local'));
    await assert.rejects(safeFetch('https://docs.example/to-file', options({ resolver: resolve, transport: hops })), refused('must use http, https or data; "file"'));
    assert.ok(seen.every((line) => line.startsWith('https://docs.example/')), 'nothing was sent to a refused destination');
  });

  it('bounds the body by its declared and its real size', async () => {
    const resolve = resolver({ 'docs.example': ['93.184.216.34'] });
    const big = answer(200, { 'content-length': '5000' });
    await assert.rejects(safeFetch('https://docs.example/a', options({ resolver: resolve, transport: async () => big })), refused('larger than'));
    const chunked: RawResponse = { ...answer(200), body: (async function* () { for (let i = 0; i < 10; i++) yield Buffer.alloc(200); })() };
    await assert.rejects(safeFetch('https://docs.example/a', options({ resolver: resolve, transport: async () => chunked })), refused('larger than'));
  });
});

describe('import URLs', () => {
  it('accepts http, https and data; refuses every other scheme and relative URLs', () => {
    for (const url of ['http://x.example/a.md', 'https://x.example/a.zip', 'data:text/markdown,Hi', 'DATA:text/plain;base64,SGk=']) checkImportUrl(url);
    for (const url of ['ftp://x.example/a', 'file:///etc/passwd', 'javascript:alert(1)', 'ws://x.example/']) assert.throws(() => checkImportUrl(url), refused('must use http, https or data'));
    assert.throws(() => checkImportUrl('a.md'), refused('absolute URL'));
  });

  it('reads data: URLs: plain, percent-encoded, base64, with a name; refuses broken and oversized ones', () => {
    assert.equal(readDataUrl('data:text/markdown,%23%20Hi%20there', 100).bytes.toString(), '# Hi there');
    const file = readDataUrl(`data:application/zip;name=my%20docs.zip;base64,${Buffer.from('PK').toString('base64')}`, 100);
    assert.deepEqual([file.contentType, file.name, file.bytes.toString()], ['application/zip', 'my docs.zip', 'PK']);
    assert.equal(readDataUrl('data:,plain', 100).contentType, 'text/plain');
    assert.throws(() => readDataUrl('data:text/plain;base64', 100), refused('no comma'));
    assert.throws(() => readDataUrl('data:text/plain;base64,@@@', 100), refused('not valid base64'));
    assert.throws(() => readDataUrl(`data:text/plain;base64,${Buffer.alloc(200).toString('base64')}`, 100), refused('larger than'));
  });
});

describe('import downloads from a real server', () => {
  let server: http.Server;
  let origin: string;
  before(async () => {
    server = http.createServer((request, response) => {
      if (request.url === '/big') {
        response.setHeader('content-type', 'text/markdown');
        response.write(Buffer.alloc(600 * 1024, 'a'));
        response.end(Buffer.alloc(600 * 1024, 'a'));
      } else if (request.url === '/slow') {
        setTimeout(() => response.end('# Late'), 2000).unref();
      } else {
        response.end('# Small\n');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ctx = (allow: boolean) => ({ config: loadConfig({ QUIRE_IMPORT_ALLOW_PRIVATE: allow ? '1' : '0' }), blobs: memoryBlobs() });

  it('refuses a download over the size limit, and one that takes longer than the time limit', async () => {
    const small = { ...DEFAULT_LIMITS, maxDownloadBytes: 1024 * 1024 };
    await assert.rejects(loadImport(ctx(true), { source: 'markdown', url: `${origin}/big` }, { limits: small }), refused('larger than 1 MB'));
    await assert.rejects(loadImport(ctx(true), { source: 'markdown', url: `${origin}/slow` }, { limits: { ...DEFAULT_LIMITS, timeoutMs: 200 } }), refused(/took (too long|longer than)/));
    const content = await loadImport(ctx(true), { source: 'markdown', url: `${origin}/small.md` });
    assert.equal(content.pages[0].title, 'Small');
  });

  it('connects to the address it checked, whatever the name (no second lookup)', async () => {
    const port = new URL(origin).port;
    const pinned = await loadImport(ctx(true), { source: 'markdown', url: `http://docs.invalid:${port}/small.md` }, { resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    assert.equal(pinned.pages[0].title, 'Small');
  });

  it('refuses the same server without QUIRE_IMPORT_ALLOW_PRIVATE, before connecting', async () => {
    await assert.rejects(loadImport(ctx(false), { source: 'markdown', url: `${origin}/small.md` }), refused('loopback'));
  });

  it('QUIRE_IMPORT_ALLOW_PRIVATE accepts 1 and 0 and refuses anything else', () => {
    assert.equal(loadConfig({}).importAllowPrivate, false);
    assert.equal(loadConfig({ QUIRE_IMPORT_ALLOW_PRIVATE: '1' }).importAllowPrivate, true);
    assert.equal(loadConfig({ QUIRE_IMPORT_ALLOW_PRIVATE: '0' }).importAllowPrivate, false);
    assert.throws(() => loadConfig({ QUIRE_IMPORT_ALLOW_PRIVATE: 'maybe' }), /QUIRE_IMPORT_ALLOW_PRIVATE must be 1 \(on\) or 0 \(off\)/);
  });
});
