// Packages to import before tsx registers its hooks. Once tsx's hooks are registered, every module imported goes
// through them, a package's own files too: each is a round trip to the hooks thread (Kysely alone is some 260
// files). A package imported first, at Node's own speed, is the very module the sources import afterwards (the
// same URL, already evaluated). These lists are a head start only: a package missing from them is loaded when the
// sources import it, as before, and one that fails to load here is left for the sources to import (and to report).
// Used by bin/quire (per command) and by the test runner (scripts/test-preload.mjs, for files that build the app).

export const DATABASE = ['kysely'];
export const MARKDOWN = [
  'unified', 'remark-parse', 'remark-gfm', 'remark-math', 'remark-frontmatter', 'remark-stringify',
  'hast-util-from-html', 'hast-util-to-html', 'unist-util-visit', 'node-diff3', 'gemoji',
];
export const HTML = ['rehype-parse', 'rehype-remark'];
export const SERVER = [
  'fastify', '@fastify/rate-limit', '@fastify/swagger', '@fastify/swagger-ui', 'fast-json-stringify', 'typebox',
  '@hocuspocus/server', '@hocuspocus/extension-redis', '@tiptap/y-tiptap', 'yjs', 'y-protocols/awareness', 'ws',
  '@modelcontextprotocol/sdk/server/mcp.js', '@modelcontextprotocol/sdk/server/streamableHttp.js',
  '@simplewebauthn/server', 'jose', 'openid-client', 'highlight.js', 'katex', 'fontkit', 'linebreak', 'pdfkit',
];
/** What building the whole app (src/app.ts) imports besides SERVER, MARKDOWN and HTML: its drivers and the rest. */
export const APP = [
  ...DATABASE, ...MARKDOWN, ...HTML, ...SERVER,
  'pg', 'better-sqlite3', '@node-rs/argon2', '@node-saml/node-saml', '@xmldom/xmldom', 'ajv', 'ajv-formats', 'zod',
  'bidi-js', 'ipaddr.js', 'mammoth', 'openapi-sampler', 'piscina', 'prom-client', 'robots-parser', 'yaml', 'yauzl',
];

/** Imports the packages named, all at once; a failure is left for the sources' own import to report. */
export async function preload(names) {
  await Promise.all(names.map((name) => import(name).catch(() => {})));
}
