import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { needs } from '../helpers/system.ts';
import { assertAccessible, assertKeyboardReachable, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * Pictures and files by paste and drop: a picture pasted into the page, a file dropped onto it and one
 * dropped onto the files panel are uploaded into the change request's files and put into the page as an
 * image block or a file block, which the change request then holds (checked through the API). A refused
 * file stays on screen with the reason; an upload that could not reach Quire is tried again, and once the
 * automatic tries are spent it is offered again, never silently lost.
 */
const skip = needs('chromium');

/** A real 48×32 PNG of one colour (its red part is `salt`), so each is a file of its own and shows in the page. */
function png(salt: number): number[] {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const size = Buffer.alloc(4);
    size.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([size, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(48, 0);
  header.writeUInt32BE(32, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: 48 }, () => [salt * 60, 120, 200]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: 32 }, () => row)));
  return [...Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))])];
}

/** Fires a paste of `file` on the editor, as the clipboard gives a copied picture (a file, no text). */
async function pasteFile(page: Page, name: string, type: string, bytes: number[]): Promise<void> {
  await page.getByRole('textbox', { name: /Body of/ }).evaluate(
    (element, file) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { name, type, bytes },
  );
}

/** Fires the drag and the drop of `file` on an element (the editor, the files panel), at its middle. */
async function dropFile(page: Page, selector: string, name: string, type: string, bytes: number[]): Promise<void> {
  await page.locator(selector).first().evaluate(
    (element, file) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
      const box = element.getBoundingClientRect();
      const at = { clientX: box.left + box.width / 2, clientY: box.top + Math.min(box.height / 2, 20), bubbles: true, cancelable: true, dataTransfer: data };
      element.dispatchEvent(new DragEvent('dragover', at));
      element.dispatchEvent(new DragEvent('drop', at));
    },
    { name, type, bytes },
  );
}

describe('pictures and files by paste and drop [sqlite]', { skip }, () => {
  let h: WorkspaceHarness;
  let spaceId = '';
  let changeRequestId = '';
  let pageId = '';
  let cr = '';

  before(async () => {
    h = await startWorkspace('sqlite');
    const admin = h.world.admin.api;
    spaceId = (await admin.post(`/v1/orgs/${h.world.organizationId}/spaces`, { title: 'Handbook' })).body.id;
    changeRequestId = (await h.world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Pictures' })).body.id;
    cr = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`;
    const made = await h.world.members.edit.api.post(`${cr}/content/pages`, { type: 'document', title: 'Setup', document: { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Before the picture.', marks: [] }] }] }] } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    pageId = made.body.id;
  });
  after(() => h?.close());

  const files = async () => (await h.world.members.read.api.get(`${cr}/content/files`)).body.items as Array<{ id: string; name: string; contentType: string }>;
  const blocks = async () => JSON.stringify((await h.world.members.read.api.get(`${cr}/content/page/${pageId}?format=document`)).body.document);
  const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 20_000 });

  it('uploads a pasted picture, a file dropped on the page and one dropped on the files panel, and puts each into the page', async () => {
    const { page, context } = await h.signedIn(h.world.members.edit);
    await page.goto(`${h.base}/o/${h.world.organizationId}/s/${spaceId}/cr/${changeRequestId}/p/${pageId}`);
    const body = page.getByRole('textbox', { name: /Body of/ });
    await body.getByText('Before the picture.').click();
    await page.keyboard.press('End');

    await pasteFile(page, 'image.png', 'image/png', png(1));
    await body.locator('.images-block img[alt^="pasted-"][src*="/files/"]').waitFor();
    // The picture shows: its bytes came back from the change request's files.
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.images-block img[alt^="pasted-"]')].some((img) => img.naturalWidth === 48));
    await saved(page);
    const pasted = (await files()).find((file) => file.name.startsWith('pasted-'));
    assert.ok(pasted, 'the pasted picture is a file of the change request');
    assert.equal(pasted.contentType, 'image/png');
    assert.ok((await blocks()).includes(`"file":"${pasted.id}"`), 'the page holds an image block of it');

    await dropFile(page, '.page-body', 'guide.pdf', 'application/pdf', [...Buffer.from('%PDF-1.4\n% dropped\n')]);
    await body.getByText(/guide\.pdf \(\d+ KB\)/).waitFor();
    await saved(page);
    const pdf = (await files()).find((file) => file.name === 'guide.pdf');
    assert.ok(pdf && (await blocks()).includes(`"file":"${pdf.id}"`), 'the dropped PDF is a file block of the page');

    await page.getByText('Files of the space').click();
    await dropFile(page, '[data-testid="files-drop"]', 'panel.png', 'image/png', png(2));
    await page.getByRole('list', { name: 'Files of the space' }).getByText('panel.png').waitFor();
    await body.locator('.images-block img[alt="panel"]').waitFor();
    await saved(page);
    const panel = (await files()).find((file) => file.name === 'panel.png');
    assert.ok(panel && (await blocks()).includes(`"file":"${panel.id}"`), 'the file dropped on the panel is in the page');
    // The keyboard's way: "choose files to upload" opens the file chooser.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'choose files to upload' }).click();
    await (await chooser).setFiles({ name: 'chosen.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') });
    await body.getByText(/chosen\.csv \(\d+ KB\)/).waitFor();
    await saved(page);
    assert.ok((await files()).some((file) => file.name === 'chosen.csv' && file.contentType === 'text/csv'));
    await assertAccessible(page, 'page editor with uploaded files');
    await assertKeyboardReachable(page, 'page editor with the files panel open');
    await h.shot(page, 'file-upload');
    await context.close();
    assert.deepEqual(h.problems, []);
  });

  it('shows a refused file with the reason and keeps an unreachable upload until it is sent', async () => {
    const { page, context } = await h.signedIn(h.world.members.edit, { allow: /^400 .*\/content\/files$/ });
    await page.goto(`${h.base}/o/${h.world.organizationId}/s/${spaceId}/cr/${changeRequestId}/p/${pageId}`);
    const body = page.getByRole('textbox', { name: /Body of/ });
    await body.getByText('Before the picture.').click();

    await dropFile(page, '.page-body', 'logo.svg', 'image/svg+xml', [...Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')]);
    const refused = page.getByRole('listitem').filter({ hasText: 'logo.svg' });
    await refused.getByRole('alert').filter({ hasText: /Not uploaded: .*not a PNG/ }).waitFor();
    await assertAccessible(page, 'page editor with a refused upload');
    await refused.getByRole('button', { name: 'Dismiss logo.svg' }).click();
    await refused.waitFor({ state: 'detached' });
    assert.ok(!(await files()).some((file) => file.name === 'logo.svg'));

    // A file dropped beside the editor and the panel does not make the browser leave the page to show it.
    const leaves = await page.locator('nav.sidebar').evaluate((element) => {
      const data = new DataTransfer();
      data.items.add(new File(['stray'], 'stray.txt', { type: 'text/plain' }));
      return element.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data }));
    });
    assert.equal(leaves, false, 'the drop is refused (its default, opening the file, prevented)');
    assert.equal(await page.getByRole('listitem').filter({ hasText: 'stray.txt' }).count(), 0, 'and nothing is uploaded');

    // Quire cannot be reached: the upload is tried again by itself, then offered again.
    let refusedTries = 0;
    await page.route('**/content/files?name=*', (route) => {
      refusedTries += 1;
      return route.abort('connectionrefused');
    });
    await pasteFile(page, 'offline.png', 'image/png', png(3));
    const waiting = page.getByRole('listitem').filter({ hasText: 'offline.png' });
    await waiting.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 30_000 });
    assert.equal(refusedTries, 3, 'three tries before asking');
    await page.unroute('**/content/files?name=*');
    await waiting.getByRole('button', { name: 'Try again' }).click();
    await body.locator('.images-block img[alt="offline"][src*="/files/"]').waitFor();
    await waiting.waitFor({ state: 'detached' });
    await saved(page);
    const offline = (await files()).find((file) => file.name === 'offline.png');
    assert.ok(offline && (await blocks()).includes(`"file":"${offline.id}"`), 'the upload arrived once Quire could be reached');
    await context.close();
    assert.deepEqual(h.problems.filter((problem) => !/net::ERR_CONNECTION_REFUSED/.test(problem)), []);
  });

  it('lets a comment-level member read the page but not upload (the API refuses with 403)', async () => {
    const reply = await h.t.app.inject({ method: 'POST', url: `${cr}/content/files?name=x.png`, headers: { authorization: `Bearer ${h.world.members.comment.token}`, 'content-type': 'image/png' }, payload: Buffer.from(png(4)) });
    assert.equal(reply.statusCode, 403);
  });
});
