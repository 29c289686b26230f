import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { buildZip, dataUrl } from '../imports/helpers.ts';

/**
 * The hostile documents, each sent while a second client keeps reading `/readyz` and a page.
 * Each must be refused with a 4xx in the error shape or be taken (2xx); never a 5xx. The worst latency
 * the second client saw is printed, not asserted (timings belong in bench/).
 */

const nestedList = (depth: number) => Array.from({ length: depth }, (_, i) => '  '.repeat(i) + '- item').join('\n');

const aliasBomb = [
  '---',
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  ...'bcdefgh'.split('').map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`),
  '---',
  '',
  'text',
].join('\n');

const MARKDOWN: Array<[string, string]> = [
  ['a list nested 1,500 deep', nestedList(1500)],
  ['20,000 nested emphasis marks', '*a '.repeat(10_000) + 'x' + ' a*'.repeat(10_000)],
  ['a run of 20,000 emphasis marks', '*'.repeat(10_000) + 'x' + '*'.repeat(10_000)],
  ['50,000 links in one paragraph', '[a](http://x) '.repeat(50_000)],
  ['50,000 links, one per line', '[a](http://x)\n'.repeat(50_000)],
  ['20,000 identical headings', '# Same\n\n'.repeat(20_000)],
  ['an unclosed code fence', '```\n' + 'code line\n'.repeat(60_000)],
  ['a YAML alias bomb in front matter', aliasBomb],
  ['YAML nested 10,000 deep in front matter', `---\na: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n---\n\ntext\n`],
  ['YAML sequences nested 10,000 deep on one line of front matter', `---\na:\n  ${'- '.repeat(10_000)}x\n---\n\ntext\n`],
  ['a blockquote nested 10,000 deep', '>'.repeat(10_000) + ' deep'],
  ['HTML of 10,000 nested <div>s', '<div>'.repeat(10_000) + 'x' + '</div>'.repeat(10_000)],
  ['HTML of 2,000 nested tables', '<table><tr><td>'.repeat(2_000) + 'x' + '</td></tr></table>'.repeat(2_000)],
  ['HTML of 10,000 nested lists', '<ul><li>'.repeat(10_000) + 'x' + '</li></ul>'.repeat(10_000)],
  ['10,000 nested inline <span>s', 'a ' + '<span>'.repeat(10_000) + 'x' + '</span>'.repeat(10_000)],
  ['a table of 50,000 rows', '| a | b |\n|---|---|\n' + '| x | y |\n'.repeat(50_000)],
  ['50,000 open brackets', '['.repeat(50_000)],
];

const HTML: Array<[string, string]> = [
  ['10,000 nested <div>s', `<html><body>${'<div>'.repeat(10_000)}x${'</div>'.repeat(10_000)}</body></html>`],
  ['2,000 nested tables', `<html><body>${'<table><tr><td>'.repeat(2_000)}x${'</td></tr></table>'.repeat(2_000)}</body></html>`],
  ['10,000 nested lists', `<html><body>${'<ul><li>'.repeat(10_000)}x${'</li></ul>'.repeat(10_000)}</body></html>`],
];

const folders200 = () => {
  const parts = Array.from({ length: 200 }, (_, i) => `f${i}`);
  return buildZip([{ name: 'README.md', data: '# Top\n' }, { name: `${parts.join('/')}/page.md`, data: '# Deep\n' }]);
};
const SUMMARY = `# Summary\n\n${Array.from({ length: 100 }, (_, i) => `${'  '.repeat(i)}* [P${i}](p${i}.md)`).join('\n')}\n`;
const ZIP: Array<[string, () => Buffer]> = [
  ['500 files of 1 MB', () => buildZip(Array.from({ length: 500 }, (_, i) => ({ name: `page-${i}.md`, data: Buffer.alloc(1_000_000, 'a') })))],
  ['folders 200 deep', folders200],
  ['a SUMMARY.md nesting pages 100 deep', () => buildZip([{ name: 'SUMMARY.md', data: SUMMARY }, ...Array.from({ length: 100 }, (_, i) => ({ name: `p${i}.md`, data: `# P${i}\n` }))])],
];

/**
 * Runs `hostile` while a second client reads `/readyz` and a page; the hostile reply and the worst latency.
 * A read's latency counts from when it was due (when its 5 ms pause ended), so time the event loop spent
 * blocked before the read could even start is counted too; one last read is made after the hostile reply.
 */
async function underLoad(t: TestApp, pageUrl: string, token: string, hostile: () => Promise<Reply>): Promise<{ reply: Reply; worst: number; reads: number }> {
  let done = false;
  let worst = 0;
  let reads = 0;
  const failures: string[] = [];
  const reader = (async () => {
    let due = performance.now();
    for (;;) {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      const page = await t.app.inject({ method: 'GET', url: pageUrl, headers: { authorization: `Bearer ${token}` } });
      worst = Math.max(worst, performance.now() - due);
      reads++;
      if (ready.statusCode !== 200) failures.push(`/readyz answered ${ready.statusCode} ${ready.body}`);
      if (page.statusCode !== 200) failures.push(`the page read answered ${page.statusCode} ${page.body.slice(0, 300)}`);
      if (done) break;
      due = performance.now() + 5;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  try {
    const reply = await hostile();
    done = true;
    await reader;
    return { reply, worst, reads };
  } finally {
    done = true;
    await reader;
    assert.deepEqual(failures, [], 'the second client reads while the hostile request runs');
  }
}

function assertNoServerError(what: string, reply: Reply): void {
  assert.ok(reply.status < 500, `${what}: answered ${reply.status} ${JSON.stringify(reply.body)}`);
  if (reply.status >= 400) {
    assert.equal(reply.body?.error?.code, reply.status, `${what}: the refusal is in the error shape`);
    assert.equal(typeof reply.body.error.message, 'string');
  }
}

for (const dialect of dialects) {
  describe(`hostile documents [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let pageUrl: string;
    let targetUrl: string;
    let changeRequestUrl: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const created = await createSpaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'Intro', markdown: 'Hello.' },
        { type: 'document', title: 'Target', markdown: 'Replaced by page imports.' },
      ]);
      spaceId = created.spaceId;
      const pages = (await world.members.edit.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages;
      pageUrl = `/v1/spaces/${spaceId}/content/page/${pages[0].id}`;
      targetUrl = `/v1/spaces/${spaceId}/content/page/${pages[1].id}`;
      const cr = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Hostile' });
      assert.equal(cr.status, 201, JSON.stringify(cr.body));
      changeRequestUrl = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
    });
    after(() => t.close());

    const send = async (what: string, url: string, body: unknown) => {
      const api = world.members.edit.api;
      const { reply, worst, reads } = await underLoad(t, pageUrl, world.members.edit.token, () => api.post(url, body));
      console.log(`# [${dialect}] ${what}: ${reply.status} (${reply.body?.error?.message ?? 'taken'}); worst /readyz + page read ${Math.round(worst)} ms over ${reads} reads`);
      assertNoServerError(what, reply);
      return reply;
    };

    for (const [what, markdown] of MARKDOWN) {
      it(`imports of ${what} answer without a 5xx (space, page, change request) and comments refuse or take it`, async () => {
        const body = { source: 'markdown', url: dataUrl('text/markdown', markdown) };
        await send(`space import of ${what}`, `/v1/spaces/${spaceId}/content/import`, body);
        await send(`page import of ${what}`, `${targetUrl}/import`, body);
        await send(`change-request import of ${what}`, `${changeRequestUrl}/content/import`, body);
        await send(`comment of ${what}`, `/v1/spaces/${spaceId}/comments`, { body: { markdown: markdown.slice(0, 20_000) } });
        // Whatever was taken reads back without a 5xx.
        const pages = await world.members.edit.api.get(`/v1/spaces/${spaceId}/content/pages`);
        assert.equal(pages.status, 200);
      });
    }

    it('a comment whose document is nested 10,000 deep is refused with a 4xx, and the server keeps answering', async () => {
      // Built as text: the document is deeper than JSON.stringify can walk.
      const depth = 10_000;
      const document = `{"object":"document","nodes":[${'{"object":"block","type":"blockquote","nodes":['.repeat(depth)}{"object":"text","leaves":[{"object":"leaf","text":"deep"}]}${']}'.repeat(depth)}]}`;
      for (const body of [`{"body":{"document":${document}}}`, `{"body":{"markdown":"x","document":${document}}}`]) {
        const { reply, worst, reads } = await underLoad(t, pageUrl, world.members.edit.token, async () => {
          const raw = await t.app.inject({ method: 'POST', url: `/v1/spaces/${spaceId}/comments`, headers: { authorization: `Bearer ${world.members.edit.token}`, 'content-type': 'application/json' }, payload: body });
          return { status: raw.statusCode, body: raw.json(), headers: raw.headers } as Reply;
        });
        console.log(`# [${dialect}] comment document nested ${depth} deep: ${reply.status} (${reply.body?.error?.message ?? 'taken'}); worst /readyz + page read ${Math.round(worst)} ms over ${reads} reads`);
        assert.ok(reply.status >= 400 && reply.status < 500, `a 4xx, not ${reply.status}`);
        assert.equal(typeof reply.body.error.message, 'string');
      }
    });

    for (const [what, html] of HTML) {
      it(`an HTML import of ${what} answers without a 5xx`, async () => {
        await send(`HTML import of ${what}`, `/v1/spaces/${spaceId}/content/import`, { source: 'html', url: dataUrl('text/html', html) });
      });
    }

    for (const [what, zip] of ZIP) {
      it(`a zip import of ${what} answers without a 5xx`, async () => {
        await send(`zip import of ${what}`, `/v1/spaces/${spaceId}/content/import`, { source: 'zip', url: dataUrl('application/zip', zip()) });
        const pages = await world.members.edit.api.get(`/v1/spaces/${spaceId}/content/pages`);
        assert.equal(pages.status, 200);
      });
    }
  });
}
