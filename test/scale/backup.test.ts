import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildZip, dataUrl, PNG } from '../imports/helpers.ts';
import { apiOf, runQuire, startQuire } from './cluster.ts';

describe('quire backup and quire restore', { timeout: 300_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'quire-backup-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('backs up a serving Quire and restores it into a fresh data folder that serves the same content', async () => {
    const first = { QUIRE_DATA_DIR: join(root, 'first') };
    const init = runQuire(['init', '--org', 'Acme', '--email', 'owner@example.com', '--json'], first);
    assert.equal(init.status, 0, init.stderr);
    const { token, organization } = JSON.parse(init.stdout);
    const serving = await startQuire(first);
    let spaceId: string;
    let pdfBytes: Buffer;
    const file = join(root, 'quire.tar.gz');
    try {
      const api = apiOf(serving.base, token);
      spaceId = (await api.post(`/v1/orgs/${organization}/spaces`, { title: 'Handbook' })).body.id;
      const zip = buildZip([
        { name: 'README.md', data: '# Welcome\n\nKept safe in a backup.\n\n![logo](logo.png)\n\n[the sheet](sheet.pdf)\n' },
        { name: 'logo.png', data: PNG },
        { name: 'sheet.pdf', data: '%PDF-1.4 sheet' },
      ]);
      assert.equal((await api.post(`/v1/spaces/${spaceId}/content/import`, { source: 'zip', url: dataUrl('application/zip', zip) })).status, 201);
      pdfBytes = Buffer.from('%PDF-1.4 sheet');
      // While the server runs.
      const made = runQuire(['backup', file, '--json'], first);
      assert.equal(made.status, 0, made.stderr);
      const report = JSON.parse(made.stdout);
      assert.deepEqual([report.blobs, report.key], [2, true]);
    } finally {
      serving.child.kill('SIGTERM');
      assert.equal(await serving.exited, 0);
    }

    const second = { QUIRE_DATA_DIR: join(root, 'second') };
    const restored = runQuire(['restore', file], second);
    assert.equal(restored.status, 0, restored.stderr);
    assert.match(restored.stdout, /Restored the database to .* with 2 blob\(s\) and the key file/);
    const again = runQuire(['restore', file], second);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /exists already; restore into an empty data folder/);

    const back = await startQuire(second);
    try {
      const api = apiOf(back.base, token);
      assert.equal((await api.get(`/v1/orgs/${organization}`)).body.title, 'Acme');
      const pages = await api.get(`/v1/spaces/${spaceId}/content/pages`);
      assert.deepEqual(pages.body.pages.map((page: { title: string }) => page.title), ['Welcome']);
      const page = await api.get(`/v1/spaces/${spaceId}/content/page/${pages.body.pages[0].id}?format=markdown`);
      assert.match(page.body.markdown, /Kept safe in a backup/);
      const files = await api.get(`/v1/spaces/${spaceId}/content/files`);
      const byName = new Map<string, string>(files.body.items.map((f: { name: string; downloadURL: string }) => [f.name, f.downloadURL]));
      for (const [name, bytes] of [['logo.png', PNG], ['sheet.pdf', pdfBytes]] as const) {
        const url = new URL(byName.get(name)!);
        const response = await fetch(back.base + url.pathname + url.search);
        assert.equal(response.status, 200, name);
        assert.ok(Buffer.from(await response.arrayBuffer()).equals(bytes), `${name}: the same bytes`);
      }
    } finally {
      back.child.kill('SIGTERM');
      assert.equal(await back.exited, 0);
    }
  });

  it('refuses what it cannot do, with a reason', () => {
    const onPostgres = runQuire(['backup', join(root, 'x.tar.gz')], { QUIRE_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/none' });
    assert.equal(onPostgres.status, 1);
    assert.match(onPostgres.stderr, /pg_dump/);
    const notABackup = join(root, 'not-a-backup');
    const made = runQuire(['restore', join(root, 'missing.tar.gz')], { QUIRE_DATA_DIR: join(root, 'third') });
    assert.equal(made.status, 1);
    assert.match(made.stderr, /There is no backup file/);
    assert.equal(runQuire(['backup'], { QUIRE_DATA_DIR: notABackup }).status, 2);
  });
});
