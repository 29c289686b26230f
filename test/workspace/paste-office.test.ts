import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { needs } from '../helpers/system.ts';
import { startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * Paste from Google Docs and Word (decision 0128): the clipboard HTML each puts beside its text
 * (test/fixtures/paste/) is pasted into a page with a real paste event, and the editor holds headings,
 * marks, nested bulleted, numbered and task lists, links, a table, code and the picture as an image block;
 * nothing executable is left; the page's Markdown, read through the API, is what those blocks write.
 */
const skip = needs('chromium');
const fixture = (name: string) => readFileSync(new URL(`../fixtures/paste/${name}`, import.meta.url), 'utf8');

/** Fires a paste on the editor as the browser does for a copy in Docs or Word: HTML and its plain text. */
async function paste(page: Page, html: string, text: string): Promise<void> {
  await page.getByRole('textbox', { name: /Body of/ }).evaluate(
    (element, items) => {
      const data = new DataTransfer();
      data.setData('text/html', items.html);
      data.setData('text/plain', items.text);
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { html, text },
  );
}

/**
 * The editor's blocks as short lines: tag (nested lists indented), text; images by their address. Kept as
 * source text: the test's compiler would name the inner function with a helper the page does not have.
 */
const STRUCTURE = `(() => {
  const lines = [];
  function walk(element, depth) {
    for (const child of element.children) {
      const tag = child.tagName.toLowerCase();
      const pad = '  '.repeat(depth);
      if (child.classList.contains('images-block')) lines.push(pad + 'image ' + child.querySelector('img')?.getAttribute('src'));
      else if (tag === 'ul' || tag === 'ol') walk(child, depth + 1);
      else if (tag === 'li') {
        const checked = child.getAttribute('data-checked');
        const own = [...child.querySelectorAll(':scope > p, :scope > div > p')].map((p) => p.textContent).join(' ');
        lines.push(pad + child.parentElement.tagName.toLowerCase() + (checked === null ? '' : checked === 'true' ? '[x]' : '[ ]') + ' ' + own);
        for (const nested of child.querySelectorAll(':scope > ul, :scope > ol, :scope > div > ul, :scope > div > ol')) walk(nested, depth + 1);
      } else if (tag === 'table' || child.querySelector(':scope table')) lines.push(pad + 'table ' + [...child.querySelectorAll('tr')].map((tr) => [...tr.children].map((cell) => cell.tagName.toLowerCase() + ':' + cell.textContent).join('|')).join(' / '));
      else if (/^(p|h[1-6]|pre)$/.test(tag)) lines.push(pad + tag + ' ' + child.textContent);
      else if (child.textContent.trim()) lines.push(pad + tag + '? ' + child.textContent);
    }
  }
  walk(document.querySelector('.page-body'), 0);
  return lines;
})()`;
const structure = (page: Page): Promise<string[]> => page.evaluate(STRUCTURE);

describe('paste from Google Docs and Word [sqlite]', { skip }, () => {
  let h: WorkspaceHarness;
  let spaceId = '';
  let cr = '';
  let base = '';
  const pages: Record<string, string> = {};

  before(async () => {
    h = await startWorkspace('sqlite');
    spaceId = (await h.world.admin.api.post(`/v1/orgs/${h.world.organizationId}/spaces`, { title: 'Handbook' })).body.id;
    const changeRequestId = (await h.world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Pasted' })).body.id;
    cr = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`;
    base = `${h.base}/o/${h.world.organizationId}/s/${spaceId}/cr/${changeRequestId}/p/`;
    for (const title of ['Docs', 'Word']) {
      const made = await h.world.members.edit.api.post(`${cr}/content/pages`, { type: 'document', title, document: { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Pasted below.', marks: [] }] }] }] } });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      pages[title] = made.body.id;
    }
  });
  after(() => h?.close());

  async function pasteInto(title: string, html: string, text: string): Promise<{ page: Page; blocks: string[]; markdown: string }> {
    const { page } = await h.signedIn(h.world.members.edit);
    // The pictures' hosts are not reached from the test: an empty answer stands for them.
    await page.route(/googleusercontent\.com/, (route) => route.fulfill({ status: 204 }));
    await page.goto(`${base}${pages[title]}`);
    const body = page.getByRole('textbox', { name: /Body of/ });
    await body.getByText('Pasted below.').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await paste(page, html, text);
    await page.waitForFunction(() => document.querySelector('.page-body table'));
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 30_000 });
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    assert.equal(await page.locator('.page-body [href^="javascript:" i], .page-body [onerror], .page-body [onclick], .page-body script, .page-body style').count(), 0);
    const blocks = await structure(page);
    const saved = await h.world.members.read.api.get(`${cr}/content/page/${pages[title]}?format=markdown`);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    return { page, blocks, markdown: String(saved.body.markdown ?? saved.body) };
  }

  it('turns a copy from Google Docs into headings, marks, nested and task lists, a table, a picture and code', async () => {
    const { page, blocks, markdown } = await pasteInto('Docs', fixture('google-docs.html'), 'Release checklist\nShip with care, read the guide twice.');
    assert.deepEqual(blocks, [
      'p Pasted below.',
      'h1 Release checklist',
      'p Ship with care, read the guide twice, run npm test and pray.!',
      'h2 Steps',
      '  ol Tag the release',
      '    ul signed tags only',
      '  ol Publish the notes',
      '  ul[x] Freeze the branch',
      '  ul[ ] Announce it',
      'table th:Platform|th:Owner / td:Linux|td:Ada',
      'image https://lh7-rt.googleusercontent.com/docsz/AD_4nXc1release-diagram?key=Q1u2i3r4e',
      'h3 Small print',
      'pre git tag -s v1.2.0\ngit push --tags',
      'p Line one2nd line',
    ]);
    // The marks the spans' styles gave, the link, the superscript and the hard break.
    const body = page.locator('.page-body');
    assert.equal(await body.locator('strong', { hasText: 'care' }).count(), 1);
    assert.equal(await body.locator('a[href="https://example.com/guide"]').count(), 1);
    assert.equal(await body.locator('sup', { hasText: '2' }).count(), 1);
    assert.equal(await body.locator('p', { hasText: 'Line one' }).locator('br').count(), 1);
    await page.close();
    assert.equal(
      markdown,
      [
        'Pasted below.',
        '',
        '## Release checklist',
        '',
        'Ship with **care**, read the [guide](https://example.com/guide) _twice_, run `npm test` ~~and pray~~.!',
        '',
        '### Steps',
        '',
        '1. Tag the release',
        '   * **signed** tags only',
        '2. Publish the notes',
        '',
        '* [x] ~~Freeze the branch~~',
        '* [ ] Announce it',
        '',
        '| Platform | Owner   |',
        '| -------- | ------- |',
        '| Linux    | **Ada** |',
        '',
        '<figure><img src="https://lh7-rt.googleusercontent.com/docsz/AD_4nXc1release-diagram?key=Q1u2i3r4e" alt="Release diagram"><figcaption></figcaption></figure>',
        '',
        '#### Small print',
        '',
        '```',
        'git tag -s v1.2.0',
        'git push --tags',
        '```',
        '',
        'Line one<br><sup>2</sup>nd line',
        '',
      ].join('\n'),
    );
  });

  it('turns a copy from Word into headings, marks, list paragraphs as lists, a table and code', async () => {
    const { page, blocks, markdown } = await pasteInto('Word', fixture('word.html'), 'Onboarding guide\nWelcome to the team – it’s good to have you.');
    assert.deepEqual(blocks.filter((line) => line !== 'p '), [
      'p Pasted below.',
      'h1 Onboarding guide',
      'p Welcome to the team – it’s good to have you. Read the whole page, slowly, and ask “why” often; see the handbook and type make setup.',
      'h1 First day',
      '  ul Collect your laptop',
      '    ul and the charger',
      '  ul Meet your buddy',
      'h2 Accounts',
      '  ol Sign in to the mail',
      '  ol Set up two-factor sign-in',
      '  ul[x] Read the policy',
      '  ul[ ] Sign it',
      'table th:System|th:Who grants it / td:Wiki|td:IT desk',
      'pre npm install\nnpm start',
    ]);
    await page.close();
    assert.equal(
      markdown,
      [
        'Pasted below.',
        '',
        '## Onboarding guide',
        '',
        'Welcome to the team – it’s good to have you. Read the **whole** page, _slowly_, and ask “why” often; see the [handbook](https://example.com/handbook) and type `make setup`.',
        '',
        '## First day',
        '',
        '* Collect your laptop',
        '  * and the **charger**',
        '* Meet your buddy',
        '',
        '### Accounts',
        '',
        '1. Sign in to the mail',
        '2. Set up two-factor sign-in',
        '',
        '* [x] Read the policy',
        '* [ ] Sign it',
        '',
        '| System | Who grants it |',
        '| ------ | ------------- |',
        '| Wiki   | IT desk       |',
        '',
        '```',
        'npm install',
        'npm start',
        '```',
        '',
      ].join('\n'),
    );
    // Word's picture is a file on the writer's disk: dropped, as is everything that could run.
    assert.ok(!markdown.includes('file:'));
    assert.deepEqual(h.problems, []);
  });
});
