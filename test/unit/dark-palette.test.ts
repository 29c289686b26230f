import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findAsset, withSystemDark } from '../../src/published/assets.ts';

const ASSETS = join(import.meta.dirname, '..', '..', 'src', 'published', 'assets');

/** The declarations of every rule whose selector is exactly `selector`, in order. */
function rulesOf(css: string, selector: string): string[] {
  const found: string[] = [];
  let at = css.indexOf(`${selector} {`);
  while (at >= 0) {
    const open = at + selector.length + 2;
    found.push(css.slice(open, css.indexOf('}', open)).trim());
    at = css.indexOf(`${selector} {`, open);
  }
  return found;
}

describe('the dark palette of the reader', () => {
  for (const name of ['site.css', 'content.css']) {
    it(`${name} writes it once, and is served with the same rules for a dark system`, () => {
      const source = readFileSync(join(ASSETS, name), 'utf8');
      assert.doesNotMatch(source, /@media \(prefers-color-scheme: dark\)/, 'no hand-written copy');
      assert.doesNotMatch(source, /:root:not\(\[data-theme="light"\]\)/, 'no hand-written copy');
      const served = findAsset(name)!.body.toString('utf8');
      const selector = name === 'site.css' ? ':root' : ':root .page-content';
      const chosen = rulesOf(served, selector.replace(':root', ':root[data-theme="dark"]'));
      const system = rulesOf(served, selector.replace(':root', ':root:not([data-theme="light"])'));
      assert.ok(chosen.length > 0 && chosen[0].includes('--q'), 'the palette is there');
      assert.equal(system[0], chosen[0]);
      assert.ok(served.indexOf(system[0]) !== served.lastIndexOf(system[0]), 'served twice: chosen, and under prefers-color-scheme');
    });
  }

  it('copies each marked block under prefers-color-scheme, for readers who have not chosen light', () => {
    const css = 'a { color: red; }\n/* dark: start */\n:root[data-theme="dark"] a { color: pink; }\n/* dark: end */\nb { color: blue; }\n';
    assert.equal(
      withSystemDark(css),
      'a { color: red; }\n:root[data-theme="dark"] a { color: pink; }\n@media (prefers-color-scheme: dark) {\n:root:not([data-theme="light"]) a { color: pink; }\n}\nb { color: blue; }\n',
    );
  });
});
