import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The reader's static files, served from memory under `/~quire/{version}/…` at the root of every address
 * (Quire's own host and each site's host). The version is a hash of all of them, so URLs change whenever a
 * file does and every response can be cached as immutable.
 */
export interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  /** The Content-Security-Policy of an HTML asset (the diagram frame). */
  csp?: string;
}

/**
 * The policy of the frame that draws Mermaid diagrams: Quire's own scripts only, like the reader, but inline
 * styles allowed, since Mermaid writes <style> elements while it draws; only pages of the same origin embed it.
 */
export const DIAGRAM_FRAME_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

const here = join(import.meta.dirname, 'assets');
const require = createRequire(import.meta.url);
const katexDist = join(dirname(require.resolve('katex/package.json')), 'dist');
// Mermaid's browser build (diagrams are drawn in the reader's browser; Quire serves the script itself).
const mermaidScript = join(dirname(require.resolve('mermaid/package.json')), 'dist', 'mermaid.min.js');

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.html': 'text/html; charset=utf-8',
};

function typeOf(name: string): string {
  return TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
}

const DARK_BLOCK = /\/\* dark: start \*\/\n([\s\S]*?)\/\* dark: end \*\/\n?/g;

/**
 * The dark theme of a stylesheet is written once, as rules under `:root[data-theme="dark"]` between the
 * comments `/* dark: start *\/` and `/* dark: end *\/` (the reader chose dark with the toggle). The same rules
 * hold when the system is dark and the reader has not chosen light: that copy, under prefers-color-scheme,
 * is made here, so the two can never drift apart.
 */
export function withSystemDark(css: string): string {
  return css.replace(DARK_BLOCK, (_block, rules: string) => {
    const system = rules.replaceAll(':root[data-theme="dark"]', ':root:not([data-theme="light"])');
    return `${rules}@media (prefers-color-scheme: dark) {\n${system}}\n`;
  });
}

function asset(path: string, name: string): Asset {
  // A file another part of the reader has not written yet is served empty rather than stopping the server.
  const read = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
  const body = name.endsWith('.css') && path.startsWith(here) ? Buffer.from(withSystemDark(read.toString('utf8'))) : read;
  return { body, type: typeOf(name), etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

function loadAssets(): { files: Map<string, Asset>; version: string } {
  const files = new Map<string, Asset>();
  for (const name of ['site.css', 'content.css', 'theme.js', 'reader.js', 'search.js', 'diagrams.js', 'diagram-frame.js']) files.set(name, asset(join(here, name), name));
  files.set('diagram-frame.html', { ...asset(join(here, 'diagram-frame.html'), 'diagram-frame.html'), csp: DIAGRAM_FRAME_CSP });
  files.set('mermaid.min.js', asset(mermaidScript, 'mermaid.min.js'));
  files.set('katex.min.css', asset(join(katexDist, 'katex.min.css'), 'katex.min.css'));
  // KaTeX's stylesheet names its fonts as `fonts/<name>`, relative to itself.
  for (const font of readdirSync(join(katexDist, 'fonts'))) {
    if (/\.(woff2?|ttf)$/.test(font)) files.set(`fonts/${font}`, asset(join(katexDist, 'fonts', font), font));
  }
  const hash = createHash('sha1');
  for (const [name, file] of files) hash.update(name).update(file.etag);
  return { files, version: hash.digest('base64url').slice(0, 12) };
}

let loaded: ReturnType<typeof loadAssets> | null = null;

function assets(): ReturnType<typeof loadAssets> {
  loaded ??= loadAssets();
  return loaded;
}

export function findAsset(name: string): Asset | undefined {
  return assets().files.get(name);
}

export function assetVersion(): string {
  return assets().version;
}

/** The address of a reader asset, e.g. assetUrl('site.css'). */
export function assetUrl(name: string): string {
  return `/~quire/${assets().version}/${name}`;
}
