import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_GITBOOK_YAML_CHARACTERS, MAX_REDIRECTS } from '../../src/imports/layout.ts';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages, currentRevision } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { buildZip, dataUrl } from './helpers.ts';

/** The bounds of `.gitbook.yaml` in an archive import: redirects counted, the file's size, repeated keys. */
// Wide entries are random, so that the archive does not take them for a zip bomb.
const redirects = (count: number, width = 0) => `redirects:\n${Array.from({ length: count }, (_, i) => `  r${i}${width ? randomBytes(width / 2).toString('hex') : ''}: README.md`).join('\n')}\n`;
const zipWith = (yaml: string) => dataUrl('application/zip', buildZip([{ name: '.gitbook.yaml', data: yaml }, { name: 'README.md', data: '# Top\n' }]));

for (const dialect of dialects) {
  describe(`.gitbook.yaml bounds [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const importZip = async (yaml: string) => {
      const { spaceId, revisionId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Kept', markdown: 'Kept.' }]);
      const reply = await world.members.edit.api.post(`/v1/spaces/${spaceId}/content/import`, { source: 'zip', url: zipWith(yaml) });
      return { reply, unchanged: async () => assert.equal(await currentRevision(t.ctx, spaceId), revisionId) };
    };

    it(`takes ${MAX_REDIRECTS.toLocaleString('en')} redirects and refuses 20,000 with 400 naming the limit, changing nothing`, async () => {
      const taken = await importZip(redirects(MAX_REDIRECTS));
      assert.equal(taken.reply.status, 201, JSON.stringify(taken.reply.body));
      const refused = await importZip(redirects(20_000));
      assertError(refused.reply, 400, `lists 20,000 redirects, more than the ${MAX_REDIRECTS.toLocaleString('en')}`);
      await refused.unchanged();
    });

    it('refuses a .gitbook.yaml larger than the bound before parsing it', async () => {
      const big = redirects(Math.ceil(MAX_GITBOOK_YAML_CHARACTERS / 500), 500);
      assert.ok(big.length > MAX_GITBOOK_YAML_CHARACTERS);
      const refused = await importZip(big);
      assertError(refused.reply, 400, 'KB, more than the 1024 KB Quire reads');
      await refused.unchanged();
    });

    it('takes a repeated redirect (the last one counts) rather than refusing the file', async () => {
      const taken = await importZip('redirects:\n  a: README.md\n  a: README.md\n');
      assert.equal(taken.reply.status, 201, JSON.stringify(taken.reply.body));
    });
  });
}
