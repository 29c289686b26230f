import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import type { Document, DocumentBlockTable } from '../../src/content/markdown/types.ts';
import { dialects } from '../helpers/app.ts';
import { addFile, createSpace, editContent } from '../helpers/content-factory.ts';
import { needs } from '../helpers/system.ts';
import { assertAccessible, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * Tables with typed columns edited in the browser: a page holds a table of a text, number, checkbox, rating,
 * people, files, select and link column, and a table the editor cannot hold (a cell with a list). Each typed
 * cell is changed through its control (and a text cell by typing), a row added and one deleted; the page's
 * Markdown, read through /v1, is the expected one, equals what importing it gives, and keeps the other table
 * byte for byte. The controls are reached by Tab with visible focus, and axe finds nothing (light and dark);
 * read in the space, the controls take no edit.
 */
const skip = needs('chromium');

const HEAD =
  '<th>Name</th><th data-type="number">Count</th><th data-type="checkbox">Done</th><th data-type="rating" data-max="5">Score</th>' +
  '<th data-type="users">Owner</th><th data-type="files">Attachment</th>' +
  '<th data-type="select">Stage<select><option value="a1" label="Alpha" color="blue"></option><option value="b2" label="Beta" color="red"></option></select></th>' +
  '<th data-type="content-ref">Link</th>';
const EMPTY = '<td></td>'.repeat(7);
const TYPED = `<table><thead><tr>${HEAD}</tr></thead><tbody><tr><td>First</td><td>3</td><td>true</td><td>4</td><td></td><td></td><td><span data-option="a1">Alpha</span></td><td></td></tr><tr><td>Second</td>${EMPTY}</tr><tr><td>Gone</td>${EMPTY}</tr></tbody></table>`;
const KEPT = '<table><thead><tr><th>Step</th><th data-type="number">Minutes</th></tr></thead><tbody><tr><td><ul><li>one</li><li>two</li></ul></td><td>5</td></tr></tbody></table>';
const PAGE = `Inventory of the team.\n\n${TYPED}\n\n${KEPT}\n`;

function tableOf(document: Document, index: number): DocumentBlockTable {
  return document.nodes.filter((node): node is DocumentBlockTable => node.type === 'table')[index];
}

for (const dialect of dialects) {
  describe(`typed table columns edited in the browser [${dialect}]`, { skip, timeout: 600_000 }, () => {
    let h: WorkspaceHarness;
    let spaceId = '';
    let targetPageId = '';
    let pictureId = '';
    let notesId = '';

    before(async () => {
      h = await startWorkspace(dialect);
      spaceId = await createSpace(h.t.ctx, h.world.organizationId, { title: 'Team' });
      await editContent(h.t.ctx, spaceId, async (writer) => {
        pictureId = await addFile(h.t.ctx, writer, { name: 'diagram.png', contentType: 'image/png', bytes: 'png' });
        notesId = await addFile(h.t.ctx, writer, { name: 'notes.pdf', contentType: 'application/pdf', bytes: 'pdf' });
        targetPageId = writer.addPage({ type: 'document', title: 'Target page', markdown: 'The target.\n' });
      });
    });
    after(() => h?.close());

    /** The typed cell's control in row `row` (1 = the first record) of column `title`. */
    const cellLabel = (title: string, row: number) => `${title}, row ${row + 1}`;

    async function focusVisible(page: Page): Promise<boolean> {
      return page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element) return false;
        const style = getComputedStyle(element);
        return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      });
    }

    it('edits a cell of each column type, adds and deletes rows, and saves the Markdown an import gives', async () => {
      const { world, base } = h;
      const api = world.admin.api;
      const cr = await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Inventory' });
      assert.equal(cr.status, 201, JSON.stringify(cr.body));
      const crUrl = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
      // The page, with the first record's owner and attachment set (ids known once the world exists).
      const content = parseMarkdown(PAGE, {}).document;
      tableOf(content, 0).data.records.r0.values.c4 = [world.admin.id];
      tableOf(content, 0).data.records.r0.values.c5 = [pictureId];
      const created = await api.post(`${crUrl}/content/pages`, { title: 'Inventory', document: content });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const pageId = created.body.id as string;
      const before = (await api.get(`${crUrl}/content/page/${pageId}?format=markdown`)).body.markdown as string;
      const keptLine = before.split('\n').find((line) => line.includes('<ul>'));
      assert.equal(keptLine, KEPT);

      const { page } = await h.signedIn(world.admin);
      await page.goto(`${base}/o/${world.organizationId}/s/${spaceId}/cr/${cr.body.id}/p/${pageId}`);
      const body = page.getByRole('textbox', { name: /Body of/ });
      await body.getByLabel(cellLabel('Count', 0)).waitFor();
      // The table the editor cannot hold is shown read-only, whole.
      await page.locator('.page-body table', { hasText: 'one' }).first().waitFor();
      // The people and files pickers have loaded the organization's members and the space's files.
      await body.getByRole('button', { name: `Remove Ada Admin from ${cellLabel('Owner', 0)}` }).waitFor();
      await body.getByRole('button', { name: `Remove diagram.png from ${cellLabel('Attachment', 0)}` }).waitFor();

      // Keyboard: Tab from a text cell goes into the next cells' controls, each showing its focus, and back.
      await body.getByText('First', { exact: true }).click();
      await page.keyboard.press('End');
      await page.keyboard.type(' again');
      const reached: string[] = [];
      for (let step = 0; step < 12; step++) {
        await page.keyboard.press('Tab');
        reached.push(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.className ?? ''));
        assert.ok(await focusVisible(page), `focus shows on ${reached.at(-1)}`);
      }
      assert.deepEqual(reached, [
        cellLabel('Count', 0), cellLabel('Done', 0), '1 of 5', '2 of 5', '3 of 5', '4 of 5', '5 of 5',
        `Remove Ada Admin from ${cellLabel('Owner', 0)}`, `Add a person to ${cellLabel('Owner', 0)}`,
        `Remove diagram.png from ${cellLabel('Attachment', 0)}`, `Add a file to ${cellLabel('Attachment', 0)}`, cellLabel('Stage', 0),
      ]);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      // Past the last column, Tab goes to the next row's text cell, selected: typing replaces it.
      await page.keyboard.type('Renamed');
      await page.keyboard.press('Shift+Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), cellLabel('Link', 0));

      // One cell of each type, in the second record (and a file added to the first).
      await body.getByText('Renamed', { exact: true }).click();
      await page.keyboard.press('End');
      await page.keyboard.type('2');
      await body.getByLabel(cellLabel('Count', 1)).fill('42.5');
      await body.getByLabel(cellLabel('Done', 1)).check();
      await body.getByRole('group', { name: new RegExp(`^${cellLabel('Score', 1)}`) }).getByRole('button', { name: '3 of 5' }).click();
      await body.getByLabel(`Add a person to ${cellLabel('Owner', 1)}`).selectOption({ label: 'edit' });
      await body.getByLabel(`Add a file to ${cellLabel('Attachment', 0)}`).selectOption({ label: 'notes.pdf' });
      await body.getByLabel(cellLabel('Stage', 1)).selectOption({ label: 'Beta' });
      await body.getByLabel(cellLabel('Link', 1)).selectOption({ label: 'Target page' });
      // The first record's rating cleared by choosing it again, its owner removed.
      await body.getByRole('group', { name: new RegExp(`^${cellLabel('Score', 0)}`) }).getByRole('button', { name: '4 of 5' }).click();
      await body.getByRole('button', { name: `Remove Ada Admin from ${cellLabel('Owner', 0)}` }).click();
      // The third record deleted; a row added after the second, its number typed in its control.
      await body.getByText('Gone', { exact: true }).click();
      await page.getByRole('toolbar', { name: 'Table' }).first().getByRole('button', { name: 'Delete row' }).click();
      await body.getByText('Renamed2', { exact: true }).click();
      await page.getByRole('toolbar', { name: 'Table' }).first().getByRole('button', { name: 'Add row' }).click();
      await body.getByLabel(cellLabel('Count', 2)).fill('7');
      await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 30_000 });
      await assertAccessible(page, 'the editor with a typed table');
      await h.shot(page, 'typed-table');

      // The Markdown through /v1: the expected table, the other table byte for byte.
      const markdown = (await api.get(`${crUrl}/content/page/${pageId}?format=markdown`)).body.markdown as string;
      const saved = (await api.get(`${crUrl}/content/page/${pageId}`)).body.document as Document;
      const typedLine = markdown.split('\n').find((line) => line.includes('data-type="rating"'));
      // Files and pages are written as the API writes them (a space file by its id, a page by its file).
      const file = (id: string) => `<a href="files/${id}">${id}</a>`;
      const rows = [
        `<tr><td>First again</td><td>3</td><td>true</td><td></td><td></td><td>${file(pictureId)}${file(notesId)}</td><td><span data-option="a1">Alpha</span></td><td></td></tr>`,
        `<tr><td>Renamed2</td><td>42.5</td><td>true</td><td>3</td><td>${world.members.edit.id}</td><td></td><td><span data-option="b2">Beta</span></td><td><a href="target-page.md">target-page.md</a></td></tr>`,
        '<tr><td></td><td>7</td><td></td><td></td><td></td><td></td><td></td><td></td></tr>',
      ];
      assert.equal(typedLine, `<table><thead><tr>${HEAD}</tr></thead><tbody>${rows.join('')}</tbody></table>`);
      assert.deepEqual(tableOf(saved, 0).data.records.r0.values.c5, [pictureId, notesId]);
      assert.deepEqual(tableOf(saved, 0).data.records.r1.values.c7, { kind: 'page', page: targetPageId });
      assert.equal(markdown.split('\n').find((line) => line.includes('<ul>')), KEPT);

      // Importing that Markdown as a page gives the same Markdown and the same tables.
      await editContent(h.t.ctx, spaceId, (writer) => {
        writer.addPage({ type: 'document', title: 'Imported', markdown });
      });
      const pages = (await api.get(`/v1/spaces/${spaceId}/content`)).body.pages as Array<{ id: string; title: string }>;
      const imported = pages.find((item) => item.title === 'Imported')!;
      assert.ok(imported, JSON.stringify(pages));
      const importedMarkdown = (await api.get(`/v1/spaces/${spaceId}/content/page/${imported.id}?format=markdown`)).body.markdown as string;
      assert.equal(importedMarkdown, markdown);
      const importedDocument = (await api.get(`/v1/spaces/${spaceId}/content/page/${imported.id}`)).body.document as Document;
      assert.deepEqual(tableOf(importedDocument, 0).data, tableOf(saved, 0).data);

      // Read in the space (not in a change request), the controls show the values and take no edit.
      await page.goto(`${base}/o/${world.organizationId}/s/${spaceId}/p/${imported.id}`);
      const count = page.getByLabel(cellLabel('Count', 1));
      await count.waitFor();
      assert.equal(await count.inputValue(), '42.5');
      assert.equal(await count.isDisabled(), true);
      assert.equal(await page.getByRole('button', { name: '3 of 5' }).nth(1).isDisabled(), true);
      assert.deepEqual(h.problems, []);
    });
  });
}
