import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pdfText } from '../../src/pdf/text.ts';

describe('text for the PDF standard fonts', () => {
  it('keeps what Windows-1252 holds', () => {
    assert.equal(pdfText('Café déjà vu — “quoted” … 5 € ™ • Œuvre'), 'Café déjà vu — “quoted” … 5 € ™ • Œuvre');
  });

  it('spells out arrows and signs, drops marks and emoji, and marks the rest with "?"', () => {
    assert.equal(pdfText('a → b ≥ c ≠ d'), 'a -> b >= c != d');
    assert.equal(pdfText('Łódź and Dvořák'), 'Lódz and Dvorák');
    assert.equal(pdfText('ok 👍\u200b!'), 'ok !');
    assert.equal(pdfText('日本'), '??');
  });

  it('keeps line breaks, expands tabs and drops other control characters', () => {
    assert.equal(pdfText('a\tb\r\nc', 2), 'a  b\nc');
    assert.equal(pdfText('a\u0007b'), 'a?b');
  });
});
