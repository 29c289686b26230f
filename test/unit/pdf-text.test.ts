import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pdfText } from '../../src/pdf/text.ts';

describe('text for the PDF fonts', () => {
  it('keeps every character that one of the embedded fonts has', () => {
    assert.equal(pdfText('Café déjà vu — “quoted” … 5 € ™ • Œuvre'), 'Café déjà vu — “quoted” … 5 € ™ • Œuvre');
    assert.equal(pdfText('Łódź and Dvořák'), 'Łódź and Dvořák');
    assert.equal(pdfText('a → b ≥ c ≠ d ✓'), 'a → b ≥ c ≠ d ✓');
    assert.equal(pdfText('Ελληνικά Русский 日本語 中文 عربي עברית हिन्दी'), 'Ελληνικά Русский 日本語 中文 عربي עברית हिन्दी');
  });

  it('keeps the joiners that shape Arabic and Indic text, drops other invisible characters and bidi controls', () => {
    assert.equal(pdfText('क्\u200dष \u200cب'), 'क्\u200dष \u200cب');
    assert.equal(pdfText('a\u200bb\ufeffc\u202ed\u2066e'), 'abcde');
  });

  it('spells out or marks with "?" what no font has, and drops emoji', () => {
    assert.equal(pdfText('done \u2714, failed \u2718'), 'done v, failed x');
    assert.equal(pdfText('ok 👍\u200b!'), 'ok !');
    assert.equal(pdfText('한국'), '??');
  });

  it('keeps line breaks, expands tabs and marks other control characters', () => {
    assert.equal(pdfText('a\tb\r\nc', 2), 'a  b\nc');
    assert.equal(pdfText('a\u0007b'), 'a?b');
  });
});
