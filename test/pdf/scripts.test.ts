import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as fontkit from 'fontkit';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { pdfPages } from '../helpers/pdf-text.ts';

/**
 * A page in eight scripts, exported through the API and read back with pdf.js: every script's text is in
 * the PDF as written (no "?"), in fonts embedded as subsets. What pdf.js returns for right-to-left text:
 * each right-to-left stretch in logical order, the stretches and left-to-right pieces of a line from left
 * to right as drawn (visual order). For Devanagari it returns a pre-base vowel sign (ि) where it is drawn,
 * before its consonant, and sometimes a space beside it. The lam-alef ligature (لا in دولار), one glyph for
 * two letters, reads back in order (its ToUnicode entry is written reversed, see fonts.ts).
 * Set QUIRE_PDF_SAMPLE to a path to keep the PDF (test-artifacts/ is the usual place).
 */

const LATIN = 'Café, naïve, Ångström, Łódź, Straße, façade, smörgåsbord.';
const GREEK = 'Η γρήγορη καφέ αλεπού πηδά πάνω από τον σκύλο.';
const CYRILLIC = 'Съешь же ещё этих мягких французских булок.';
const JAPANESE = '日本語の文章です。カタカナとひらがな。';
const CHINESE = '这是一个中文段落，我们说中文。';
const ARABIC = 'مرحبا بالعالم هذا نص عربي';
const HEBREW = 'שלום עולם זה טקסט בעברית';
const DEVANAGARI = 'नमस्ते दुनिया यह हिंदी पाठ है';
/** Arabic with a number and a Latin word inside: three right-to-left stretches. */
const MIXED = { logical: 'السعر 120 دولار في Quire اليوم', visual: ['اليوم', 'Quire', 'دولار في', '120', 'السعر'] };

const PAGE = [
  `## Ελληνικά Русский 日本語 עברית`,
  '',
  LATIN,
  '',
  GREEK,
  '',
  CYRILLIC,
  '',
  JAPANESE,
  '',
  CHINESE,
  '',
  ARABIC,
  '',
  HEBREW,
  '',
  DEVANAGARI,
  '',
  MIXED.logical,
  '',
  '* Элемент списка',
  '* 列表の項目',
  '* عنصر القائمة',
  '',
  '| Script | Text |',
  '|---|---|',
  '| Hebrew | עברית בטבלה |',
  '| Greek | Κελί πίνακα |',
  '',
  '```',
  'const greeting = "Привет, 世界";',
  '// a -> b, x != y, t\u0300 (a mark JetBrains Mono cannot position through fontkit)',
  '```',
  '',
].join('\n');

const norm = (text: string) => text.normalize('NFKC');
const squeeze = (text: string) => norm(text).replace(/\s+/g, '');

/** Devanagari as pdf.js reads it: the vowel sign ि (drawn before its consonant) ahead of that consonant. */
function drawnDevanagari(text: string): string {
  return text.replace(/(\p{L}\u094d)?(\p{L})\u093f/gu, (_, half: string | undefined, consonant: string) => `\u093f${half ?? ''}${consonant}`);
}

function assertInOrder(text: string, needles: string[]): void {
  let from = 0;
  for (const needle of needles) {
    const at = text.indexOf(needle, from);
    assert.ok(at >= 0, `"${needle}" after position ${from} in: ${text}`);
    from = at + needle.length;
  }
}

for (const dialect of dialects) {
  describe(`PDF in every script [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let bytes: Buffer;
    let text: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app);
      spaceId = (await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Σενάρια · Сценарии · 文字', markdown: PAGE }], { title: 'Scripts' })).spaceId;
      const reply = await world.members.read.api.get(`/v1/spaces/${spaceId}/pdf`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const url = new URL(reply.body.url);
      const response = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
      assert.equal(response.statusCode, 200, response.body);
      bytes = response.rawPayload;
      if (process.env.QUIRE_PDF_SAMPLE) {
        mkdirSync(dirname(process.env.QUIRE_PDF_SAMPLE), { recursive: true });
        writeFileSync(process.env.QUIRE_PDF_SAMPLE, bytes);
      }
      text = norm((await pdfPages(bytes)).join(' '));
    });
    after(() => t.close());

    it('reads back Latin, Greek, Cyrillic, Japanese and Chinese as written, with no "?"', () => {
      for (const sentence of [LATIN, GREEK, CYRILLIC, JAPANESE, CHINESE, 'Σενάρια · Сценарии · 文字', 'Ελληνικά Русский 日本語', 'Элемент списка', '列表の項目', 'Κελί πίνακα', 'const greeting = "Привет, 世界";', '// a -> b, x != y, t\u0300']) {
        assert.ok(text.includes(norm(sentence)), `"${sentence}" in: ${text}`);
      }
      assert.ok(!text.includes('?'), `no "?" in: ${text}`);
    });

    it('reads back Arabic and Hebrew in logical order, and mixed lines stretch by stretch in visual order', () => {
      for (const sentence of [ARABIC, HEBREW, 'عنصر القائمة', 'עברית בטבלה', 'עברית']) assert.ok(text.includes(norm(sentence)), `"${sentence}" in: ${text}`);
      assertInOrder(text, MIXED.visual.map(norm));
    });

    it('joins Arabic letters (the font is laid out with its initial, medial and final forms)', () => {
      const dir = dirname(createRequire(import.meta.url).resolve('@embedpdf/fonts-arabic'));
      const font = fontkit.create(readFileSync(join(dir, '..', 'fonts', 'NotoNaskhArabic-Regular.ttf'))) as fontkit.Font & { layout(text: string): { glyphs: Array<{ id: number }> } };
      const word = 'بالعالم';
      const joined = font.layout(word).glyphs.map((glyph) => glyph.id);
      const alone = [...word].reverse().map((char) => font.layout(char).glyphs[0].id);
      assert.equal(joined.length, alone.length);
      assert.notDeepEqual(joined, alone, 'contextual forms differ from the isolated letters');
    });

    it('reads back Devanagari, its vowel signs where they are drawn', () => {
      assert.ok(squeeze(text).includes(squeeze(drawnDevanagari(DEVANAGARI))), `"${DEVANAGARI}" in: ${text}`);
    });

    it('embeds every font as a subset, and no standard font', () => {
      const raw = bytes.toString('latin1');
      const fonts = [...raw.matchAll(/\/BaseFont \/([^\s/]+)/g)].map((match) => match[1]);
      for (const name of ['NotoSans-Regular', 'NotoSans-Bold', 'NotoNaskhArabic', 'NotoSansHebrew', 'NotoSansJP-Regular', 'NotoSansHans-Regular', 'JetBrainsMono-Regular']) {
        assert.ok(
          fonts.some((font) => new RegExp(`^[A-Z]{6}\\+${name}$`).test(font)),
          `${name} embedded as a subset: ${fonts.join(', ')}`,
        );
      }
      assert.ok(
        fonts.every((font) => /^[A-Z]{6}\+/.test(font)),
        `only subsets: ${fonts.join(', ')}`,
      );
      // The Japanese and Chinese fonts alone are over 4 MB each: a subset of a few glyphs is far smaller.
      assert.ok(bytes.length < 400_000, `${bytes.length} bytes`);
    });
  });
}
