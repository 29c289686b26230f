import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { nowIso } from '../../src/context.ts';
import { RevisionWriter } from '../../src/content/writer.ts';
import { pdfStats } from '../../src/pdf/cache.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpace, editContent } from '../helpers/content-factory.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';
import { PNG } from '../imports/helpers.ts';
import { pdfPages, standardFontDataUrl } from '../helpers/pdf-text.ts';

async function pdfOutline(bytes: Buffer): Promise<string[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, verbosity: 0 }).promise;
  const outline = (await pdf.getOutline()) ?? [];
  const titles: string[] = [];
  const walk = (items: Array<{ title: string; items: unknown[] }>, depth: number) => {
    for (const item of items) {
      titles.push(`${'  '.repeat(depth)}${item.title}`);
      walk(item.items as Array<{ title: string; items: unknown[] }>, depth + 1);
    }
  };
  walk(outline as Array<{ title: string; items: unknown[] }>, 0);
  await pdf.destroy();
  return titles;
}

/** The internal destinations that the links of a page of a PDF lead to. */
async function pdfLinks(bytes: Buffer, pageNumber: number): Promise<string[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, verbosity: 0 }).promise;
  const annotations = (await (await pdf.getPage(pageNumber)).getAnnotations()) as Array<{ subtype: string; dest?: unknown; url?: string }>;
  await pdf.destroy();
  return annotations.filter((annotation) => annotation.subtype === 'Link').map((annotation) => (typeof annotation.dest === 'string' ? annotation.dest : (annotation.url ?? '')));
}

/** Asserts that `needles` occur in `text` in this order. */
function assertInOrder(text: string, needles: string[]): void {
  let from = 0;
  for (const needle of needles) {
    const at = text.indexOf(needle, from);
    assert.ok(at >= 0, `"${needle}" should come after position ${from} in: ${text.slice(from, from + 400)}…`);
    from = at + needle.length;
  }
}

const GUIDE = `Everything you need to **get going** with *Quire*, including \`quire serve\` and [the website](https://example.com/quire).

## Install

1. Download the archive
2. Unpack it
   * into a folder of your choice
   * and keep it there
3. Run the installer

* [x] Read the notes
* [ ] Tell a friend

\`\`\`bash
npm install --global quire
quire init --data ./data
\`\`\`

| Setting | Default |
|---|--:|
| port | 8080 |
| dataDir | ./data |

{% hint style="warning" %}
Back up the data folder before upgrading.
{% endhint %}

> Software is a gas; it expands to fill its container.

<details>

<summary>Troubleshooting</summary>

Restart the service when it hangs.

</details>

{% tabs %}
{% tab title="Linux" %}
Use systemd units.
{% endtab %}
{% tab title="macOS" %}
Use launchd agents.
{% endtab %}
{% endtabs %}

$$
E = mc^2
$$

![The architecture](files/diagram)

See [the reference](#install) and the → arrow, the café and 日本.
`;

const LONG = Array.from({ length: 120 }, (_, i) => `Paragraph ${i + 1} of the long guide, written to fill several pages of the PDF with plain prose that wraps.`).join('\n\n');

for (const dialect of dialects) {
  describe(`PDF of a change request [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    const pages: Record<string, string> = {};
    let changeRequestId: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app);
      spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      await editContent(t.ctx, spaceId, async (writer) => {
        const diagram = await addFile(t.ctx, writer, { id: 'diagram', name: 'diagram.png', contentType: 'image/png', bytes: PNG, dimensions: { width: 1, height: 1 } });
        await addFile(t.ctx, writer, { id: 'notes', name: 'notes.svg', contentType: 'image/svg+xml', bytes: '<svg xmlns="http://www.w3.org/2000/svg"/>' });
        assert.equal(diagram, 'diagram');
        pages.start = writer.addPage({ type: 'document', title: 'Getting started', description: 'First steps with Quire.', markdown: GUIDE });
        pages.guides = writer.addPage({ type: 'group', title: 'Guides' });
        pages.long = writer.addPage({ type: 'document', title: 'The long guide', markdown: LONG }, { parent: pages.guides });
        pages.vector = writer.addPage({ type: 'document', title: 'Vector art', markdown: 'A drawing that is not a bitmap:\n\n![Notes](files/notes)\n' }, { parent: pages.guides });
        pages.link = writer.addPage({ type: 'link', title: 'Elsewhere', target: { kind: 'url', url: 'https://example.com/elsewhere' } });
      });
      // The change request's own line: the space's content plus a page only it has.
      const space = await t.ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
      const writer = await RevisionWriter.fromRevision(t.ctx, space.revision_id);
      pages.draft = writer.addPage({ type: 'document', title: 'Release notes', markdown: '# Version 2\n\nOnly in the change request.\n' });
      const { revisionId } = await writer.commit(t.ctx, { spaceId, type: 'edits', parents: [space.revision_id] });
      changeRequestId = t.ctx.ids.next();
      const now = nowIso(t.ctx);
      await t.ctx.db
        .insertInto('change_requests')
        .values({
          id: changeRequestId,
          space_id: spaceId,
          number: 7,
          subject: 'Document the installer',
          status: 'open',
          revision_initial: space.revision_id,
          revision: revisionId,
          revision_merged_ancestor: space.revision_id,
          revision_merged: null,
          agent_task_id: null,
          comments: 0,
          created_by: world.admin.id,
          created_at: now,
          updated_at: now,
          merged_at: null,
          merged_by: null,
        })
        .execute();
    });
    after(() => t.close());

    const base = () => `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/pdf`;

    /** The signed URL the API gives a reader, as a path on the app. */
    const urlFor = async (query = ''): Promise<string> => {
      const reply = await world.members.read.api.get(`${base()}${query}`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const url = new URL(reply.body.url);
      assert.equal(url.origin, 'http://quire.test');
      return url.pathname + url.search;
    };
    const download = (url: string) => t.app.inject({ method: 'GET', url });
    const errorOf = (response: { body: string }) => JSON.parse(response.body).error as { code: number; message: string };

    it('answers a signed URL to every reader of the space, and hides the space from others', async () => {
      for (const [name, user] of cast(world)) {
        const reply = await user.api.get(base());
        if (name === 'guest' || name === 'outsider') {
          assert.equal(reply.status, 404, `${name}: ${JSON.stringify(reply.body)}`);
          assert.equal(reply.body.error.code, 404);
        } else {
          assert.equal(reply.status, 200, `${name}: ${JSON.stringify(reply.body)}`);
          assert.match(reply.body.url, new RegExp(`^http://quire\\.test/pdf/${spaceId}/[^/?]+\\?changeRequest=${changeRequestId}&expires=\\d+&signature=`));
        }
      }
      const byNumber = await world.members.read.api.get(`/v1/spaces/${spaceId}/change-requests/7/pdf`);
      assert.equal(byNumber.status, 200);
      assert.equal((await world.members.read.api.get(`/v1/spaces/${spaceId}/change-requests/8/pdf`)).status, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: base() })).statusCode, 401);
    });

    it('serves a PDF of every page in tree order, after a table of contents', async () => {
      const rendered = pdfStats.rendered;
      const response = await download(await urlFor());
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['content-type'], 'application/pdf');
      assert.equal(response.headers['content-length'], String(response.rawPayload.length));
      assert.equal(response.headers['content-disposition'], `inline; filename="Handbook - change request 7.pdf"; filename*=UTF-8''Handbook%20-%20change%20request%207.pdf`);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.ok(response.rawPayload.subarray(0, 5).equals(Buffer.from('%PDF-')), 'a PDF');
      assert.equal(pdfStats.rendered, rendered + 1);
      if (process.env.QUIRE_PDF_SAMPLE) writeFileSync(process.env.QUIRE_PDF_SAMPLE, response.rawPayload);

      const texts = await pdfPages(response.rawPayload);
      assert.ok(texts.length >= 5, `several pages (the long guide flows over pages): ${texts.length}`);
      const [front] = texts;
      assertInOrder(front, ['Handbook', 'Change request #7: Document the installer', 'Contents', 'Getting started', 'Guides', 'The long guide', 'Vector art', 'Release notes']);
      assert.ok(!front.includes('Elsewhere'), 'link pages are not printed');
      // Page numbers in the table of contents: the title page is 1, the first page starts on 2.
      assert.match(front, /Getting started 2 Guides \d+ The long guide \d+/);

      const body = texts.slice(1).join(' ');
      assertInOrder(body, [
        'Getting started',
        'First steps with Quire.',
        'Everything you need to',
        'get going',
        'with',
        'Quire',
        'quire serve',
        'the website',
        'Install',
        '1.',
        'Download the archive',
        'Unpack it',
        'into a folder of your choice',
        'and keep it there',
        '3.',
        'Run the installer',
        'Read the notes',
        'Tell a friend',
        'npm install --global quire',
        'quire init --data ./data',
        'Setting',
        'Default',
        'port',
        '8080',
        'dataDir',
        './data',
        'Warning',
        'Back up the data folder before upgrading.',
        'Software is a gas',
        'Troubleshooting',
        'Restart the service when it hangs.',
        'Linux',
        'Use systemd units.',
        'macOS',
        'Use launchd agents.',
        'E = mc^2',
        'The architecture',
        'the → arrow, the café and 日本.',
        'Guides',
        'The long guide',
        'Paragraph 1 of the long guide',
        'Paragraph 120 of the long guide',
        'Vector art',
        'Image "notes.svg" (image/svg+xml): not shown in the PDF',
        'Release notes',
        'Version 2',
        'Only in the change request.',
      ]);
      // Footers number every page after the title page.
      assert.match(texts[1], new RegExp(`2 / ${texts.length}`));

      assert.deepEqual(await pdfOutline(response.rawPayload), ['Contents', 'Getting started', 'Guides', '  The long guide', '  Vector art', 'Release notes']);
      // The table of contents links to the pages; a link to a heading leads to it; web links stay web links.
      const contents = await pdfLinks(response.rawPayload, 1);
      for (const id of [pages.start, pages.guides, pages.long, pages.vector, pages.draft]) assert.ok(contents.includes(`page:${id}`), `contents link to ${id}`);
      const first = await pdfLinks(response.rawPayload, 2);
      assert.ok(first.includes('https://example.com/quire'), JSON.stringify(first));
      assert.ok(first.includes(`page:${pages.start}#install`), JSON.stringify(first));
      // The PNG is embedded (as an image and its alpha mask); the SVG is named instead.
      const raw = response.rawPayload.toString('latin1');
      assert.equal(raw.match(/\/Subtype \/Image/g)?.length, 2);
      assert.equal(raw.match(/\/SMask /g)?.length, 1);
    });

    it('serves the second request from the cache: the same bytes, no new rendering', async () => {
      const url = await urlFor();
      const first = await download(url);
      const rendered = pdfStats.rendered;
      const second = await download(await urlFor());
      assert.equal(second.statusCode, 200);
      assert.ok(second.rawPayload.equals(first.rawPayload), 'the same bytes');
      assert.equal(second.headers.etag, first.headers.etag);
      assert.equal(pdfStats.rendered, rendered, 'served from the cache');
      const row = await t.ctx.db.selectFrom('pdf_exports').select(['blob', 'size']).where('blob', '=', String(first.headers.etag).replace(/"/g, '')).executeTakeFirst();
      assert.equal(row?.size, first.rawPayload.length);

      // Two requests at once for a PDF not made yet: one rendering.
      const before = pdfStats.rendered;
      const url2 = await urlFor(`?only=true&page=${pages.long}`);
      const [a, b] = await Promise.all([download(url2), download(url2)]);
      assert.equal(a.statusCode, 200);
      assert.ok(a.rawPayload.equals(b.rawPayload));
      assert.equal(pdfStats.rendered, before + 1);
    });

    it('prints one page with only=true&page=…, and a page with those under it with page=…', async () => {
      const only = await download(await urlFor(`?only=true&page=${pages.start}`));
      assert.equal(only.statusCode, 200, only.body);
      assert.match(String(only.headers['content-disposition']), /filename="Handbook - change request 7 - Getting started.pdf"/);
      const texts = await pdfPages(only.rawPayload);
      const all = texts.join(' ');
      assert.ok(texts[0].startsWith('Getting started'), 'no title page for a single page');
      assertInOrder(all, ['Getting started', 'Install', 'Download the archive', 'npm install --global quire', 'Back up the data folder']);
      for (const other of ['The long guide', 'Release notes', 'Contents']) assert.ok(!all.includes(other), `${other} is not printed`);
      assert.deepEqual(await pdfOutline(only.rawPayload), ['Getting started']);

      const group = await download(await urlFor(`?page=${pages.guides}`));
      assert.equal(group.statusCode, 200);
      const groupText = (await pdfPages(group.rawPayload)).join(' ');
      assertInOrder(groupText, ['Contents', 'Guides', 'The long guide', 'Vector art', 'Guides', 'The long guide', 'Paragraph 120', 'Vector art']);
      assert.ok(!groupText.includes('Getting started'));

      // The page added in the change request is there too.
      const draft = await download(await urlFor(`?only=true&page=${pages.draft}`));
      assertInOrder((await pdfPages(draft.rawPayload)).join(' '), ['Release notes', 'Version 2', 'Only in the change request.']);
    });

    it('refuses an unknown page, a link page, and "only" without a page', async () => {
      const unknown = await world.members.read.api.get(`${base()}?only=true&page=nope`);
      assert.equal(unknown.status, 404);
      assert.match(unknown.body.error.message, /nope/);
      const link = await world.members.read.api.get(`${base()}?only=true&page=${pages.link}`);
      assert.equal(link.status, 400);
      assert.match(link.body.error.message, /link/);
      const bare = await world.members.read.api.get(`${base()}?only=true`);
      assert.equal(bare.status, 400);
      assert.match(bare.body.error.message, /"page"/);
    });

    it('refuses an altered URL with 403 and an expired one with 410', async () => {
      const url = new URL(await urlFor(`?only=true&page=${pages.start}`), 'http://quire.test');
      const variants: Array<[string, (u: URL) => void]> = [
        ['signature', (u) => u.searchParams.set('signature', `${u.searchParams.get('signature')!.slice(0, -2)}AA`)],
        ['expiry', (u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))],
        ['page', (u) => u.searchParams.set('page', pages.long)],
        ['only', (u) => u.searchParams.delete('only')],
        ['change request', (u) => u.searchParams.delete('changeRequest')],
        ['space', (u) => (u.pathname = u.pathname.replace(spaceId, 'other'))],
      ];
      for (const [what, alter] of variants) {
        const altered = new URL(url);
        alter(altered);
        const response = await download(altered.pathname + altered.search);
        assert.equal(response.statusCode, 403, `altered ${what}: ${response.body}`);
        assert.match(errorOf(response).message, /not valid/);
      }
      // A PDF signature is no file signature.
      const revisionId = url.pathname.split('/')[3];
      const fileUrl = `/files/${spaceId}/diagram?${new URLSearchParams({ revision: revisionId, expires: url.searchParams.get('expires')!, signature: url.searchParams.get('signature')! })}`;
      assert.equal((await download(fileUrl)).statusCode, 403);

      t.clock.advance(2 * 3600 * 1000 + 1000);
      const expired = await download(url.pathname + url.search);
      assert.equal(expired.statusCode, 410, expired.body);
      assert.match(errorOf(expired).message, /expired/);
      assert.equal((await download(await urlFor(`?only=true&page=${pages.start}`))).statusCode, 200, 'a fresh URL works');
    });

    it('serves nothing once the space is deleted', async () => {
      const url = await urlFor(`?only=true&page=${pages.vector}`);
      await t.ctx.db.updateTable('spaces').set({ deleted_at: nowIso(t.ctx) }).where('id', '=', spaceId).execute();
      try {
        assert.equal((await download(url)).statusCode, 404);
      } finally {
        await t.ctx.db.updateTable('spaces').set({ deleted_at: null }).where('id', '=', spaceId).execute();
      }
    });
  });
}
