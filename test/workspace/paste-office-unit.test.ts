import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { needs } from '../helpers/system.ts';

/**
 * web/src/editor/paste-office.ts on its own, in a blank Chromium page (it needs the browser's DOMParser): small
 * Docs and Word snippets and the plain HTML they become (decision 0128).
 */
const skip = needs('chromium');

describe('office paste conversion', { skip }, () => {
  let browser: Browser;
  let page: Page;
  before(async () => {
    const bundle = await build({ entryPoints: [new URL('../../web/src/editor/paste-office.ts', import.meta.url).pathname], bundle: true, write: false, format: 'iife', globalName: 'office' });
    browser = await launchChromium();
    page = await browser.newPage();
    await page.addScriptTag({ content: bundle.outputFiles[0].text });
  });
  after(() => browser?.close());

  const convert = (html: string): Promise<string> =>
    page.evaluate((source) => {
      const office = (window as unknown as { office: { officeHtml(html: string): string; renameStyles(html: string): string } }).office;
      return office.officeHtml(office.renameStyles(source));
    }, html);

  it('leaves HTML of neither source as it is', async () => {
    const web = '<p class="note"><span>plain</span></p>';
    assert.equal(await page.evaluate((html) => (window as unknown as { office: { officeHtml(html: string): string } }).office.officeHtml(html), web), web);
  });

  it('reads a web page\'s styled spans as marks and leaves no style behind', async () => {
    const web = '<p class="note">a <span style="font-weight: bold">b</span> <span style="font-style:italic">c</span> <span class="x">d</span></p>';
    const out = await page.evaluate((html) => {
      const office = (window as unknown as { office: { webHtml(html: string): string; renameStyles(html: string): string } }).office;
      return office.webHtml(office.renameStyles(html));
    }, web);
    assert.equal(out, '<p class="note">a <strong>b</strong> <em>c</em> <span class="x">d</span></p>');
  });

  it('reads Docs spans as marks, keeping edge spaces outside them, and its h4 as a third heading', async () => {
    const docs = '<b style="font-weight:normal;" id="docs-internal-guid-1"><h4><span style="font-weight:700">Note</span></h4><p dir="ltr"><span style="font-weight:400">a</span><span style="font-style:italic;font-weight:700"> b </span><span style="font-family:\'Roboto Mono\'">c</span><span style="text-decoration:underline">d</span></p><br></b>';
    assert.equal(await convert(docs), '<h3>Note</h3><p>a <em><strong>b</strong></em> <code>c</code>d</p>');
  });

  it('nests Docs list items by aria-level and starts a new list when the kind changes', async () => {
    const docs = '<b id="docs-internal-guid-2"><ul><li aria-level="1" style="list-style-type:disc"><p>one</p></li><li aria-level="2" style="list-style-type:lower-alpha"><p>two</p></li><li aria-level="1" role="checkbox" aria-checked="true"><p>three</p></li></ul></b>';
    assert.equal(await convert(docs), '<ul><li><p>one</p><ol><li><p>two</p></li></ol></li></ul><ul data-type="taskList"><li data-type="taskItem" data-checked="true"><p>three</p></li></ul>');
  });

  it('reads Word list paragraphs by their typed bullet and level, and drops its local pictures', async () => {
    const word = `<p class=MsoListParagraphCxSpFirst style='mso-list:l0 level1 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>1.<span>&nbsp;&nbsp;</span></span><![endif]>First<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='mso-list:l0 level2 lfo1'><!--[if !supportLists]--><span style='font-family:"Courier New"'><span style='mso-list:Ignore'>o<span>&nbsp;</span></span></span><!--[endif]-->Inner<span style='mso-spacerun:yes'>&nbsp; </span>text</p>
<p class=MsoNormal><img src="file:///C:/clip_image001.png"><o:p>&nbsp;</o:p></p>`;
    assert.equal((await convert(word)).trim(), '<ol><li><p>First</p><ul><li><p>Inner  text</p></li></ul></li></ol>');
  });
});
