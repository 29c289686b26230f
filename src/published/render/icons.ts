import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LruCache } from '../../lru.ts';

/**
 * Icons by Font Awesome name (`book`, `hand-pointer`), as GitBook names them, drawn from the Font Awesome
 * Free set shipped as a dependency (`@fortawesome/fontawesome-free`; icons CC BY 4.0) and inlined as SVG:
 * the reader loads no icon font and makes no request for them. An unknown name draws nothing.
 */
const root = join(dirname(createRequire(import.meta.url).resolve('@fortawesome/fontawesome-free/package.json')), 'svgs');
const STYLES = ['solid', 'regular', 'brands'];
const cache = new LruCache<string, string>(2000);

/** The SVG of an icon, classed `icon`, hidden from assistive technology (the text around it carries the meaning). */
export function iconSvg(name: string): string {
  if (!/^[a-z0-9-]{1,50}$/.test(name)) return '';
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  let svg = '';
  for (const style of STYLES) {
    const path = join(root, style, `${name}.svg`);
    if (!existsSync(path)) continue;
    svg = readFileSync(path, 'utf8')
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace('<svg ', '<svg class="icon" aria-hidden="true" focusable="false" ');
    break;
  }
  cache.set(name, svg);
  return svg;
}
