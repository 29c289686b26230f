import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { needs } from '../helpers/system.ts';
import { startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * Characters typed on a keyboard are inserted by the editor (web/src/editor/typed-keys.ts, decision 0149), not by
 * the browser's editing command: each such keypress is taken (its default prevented), and what is written is what
 * the browser's path gave — the Markdown shortcuts, bold carried on from Ctrl+B and from inside bold text, a link
 * not stretched by typing after it, a selection replaced. Text that comes from no keypress (an input method's
 * composition, an emoji picker) keeps the browser's path and arrives too. The saved page is read through the API.
 */
const skip = needs('chromium');

describe('typed characters [sqlite]', { skip }, () => {
  let h: WorkspaceHarness;
  let spaceId = '';
  let cr = '';
  let pageId = '';

  before(async () => {
    h = await startWorkspace('sqlite');
    const { admin } = h.world;
    spaceId = (await admin.api.post(`/v1/orgs/${h.world.organizationId}/spaces`, { title: 'Typing' })).body.id;
    cr = (await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Keys' })).body.id;
    const created = await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`, {
      title: 'Keys',
      document: parseMarkdown('Some **bold** text.\n\nA [link](https://example.com/)\n\nLast paragraph\n', {}).document,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    pageId = created.body.id;
  });
  after(() => h?.close());

  it('inserts keyboard characters itself, with the marks, shortcuts and selection the browser would give', async () => {
    const { page, context } = await h.signedIn(h.world.admin);
    await page.goto(`${h.base}/o/${h.world.organizationId}/s/${spaceId}/cr/${cr}/p/${pageId}`);
    await page.locator('.page-body[contenteditable=true]').waitFor();
    // Every keypress that reaches the page, and whether the editor took it (checked after every other listener).
    await page.evaluate(() => {
      const seen: Array<{ key: string; taken: boolean }> = [];
      (window as unknown as { typedKeys: typeof seen }).typedKeys = seen;
      window.addEventListener('keypress', (event) => seen.push({ key: event.key, taken: event.defaultPrevented }));
    });
    const keys = () => page.evaluate(() => (window as unknown as { typedKeys: Array<{ key: string; taken: boolean }> }).typedKeys);

    // Inside bold: the typed letters are bold too. Then after the link: not linked.
    await page.locator('.page-body strong').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Home');
    for (let n = 0; n < 'Some bo'.length; n++) await page.keyboard.press('ArrowRight');
    await page.keyboard.type('xx');
    await page.locator('.page-body a').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' here');
    // A selection replaced: the last word selected with the keyboard, then a letter.
    await page.getByText('Last paragraph').click();
    await page.keyboard.press('End');
    for (let n = 0; n < 'paragraph'.length; n++) await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.type('line');
    // Ctrl+B then letters: bold from the stored mark. A Markdown shortcut: `## ` on a new line makes a heading of
    // the second level (GitBook's heading-2, `###` in the page's Markdown, whose `#` is the page's title).
    await page.keyboard.press('Enter');
    await page.keyboard.type('Plain ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('strong');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' end');
    await page.keyboard.press('Enter');
    await page.keyboard.type('## Heading typed');
    const typed = await keys();
    assert.ok(typed.length >= 40, `keypresses seen: ${typed.length}`);
    assert.deepEqual(
      typed.filter((key) => !key.taken),
      [],
      'every keyboard character was inserted by the editor',
    );

    // Text from no keypress: an input method's composition, then an emoji picker's insertion.
    await page.keyboard.press('Enter');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Input.imeSetComposition', { text: 'に', selectionStart: 1, selectionEnd: 1 });
    await cdp.send('Input.imeSetComposition', { text: 'にほ', selectionStart: 2, selectionEnd: 2 });
    await cdp.send('Input.insertText', { text: '日本' });
    await cdp.send('Input.insertText', { text: ' 🦦' });
    await page.getByText('日本 🦦').waitFor();
    assert.equal((await keys()).length, typed.length, 'the composition and the picker sent no keypress');

    await page.keyboard.press('Control+s');
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 20_000 });
    const saved = await h.world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}?format=markdown`);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(
      String(saved.body.markdown),
      'Some **boxxld** text.\n\nA [link](https://example.com/) here\n\nLast line\n\nPlain **strong** end\n\n### Heading typed\n\n日本 🦦\n',
    );
    assert.deepEqual(h.problems, []);
    await context.close();
  });
});
