// The runner's reporter when the test files run from the test bundle (scripts/test.mjs, decision 0145): Node's own
// (spec on a terminal, else TAP on Node 20 and spec from Node 23, as without a --test-reporter), fed the runner's events with each file of the
// bundle named by its source (.tmp/test-bundle-<pid>/test/a.test.mjs: test/a.test.ts, absolute as Node names it)
// and each test's location (line and column) mapped through the file's source map to the .ts source. Stacks need
// nothing here: the test files' processes run with source maps on.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { spec, tap } from 'node:test/reporters';

const root = join(import.meta.dirname, '..');
const bundle = process.env.QUIRE_TEST_BUNDLE_DIR;
const maps = new Map();

/** The source of a file of the bundle (the inverse of scripts/test-bundle.mjs's builtPath for the entry points). */
function source(path) {
  return join(root, relative(bundle, path).replace(/\.mjs$/, '.ts'));
}

function sourceMap(file) {
  if (!maps.has(file)) {
    let map = null;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      // No map: the location keeps its line and column.
    }
    maps.set(file, map);
  }
  return maps.get(file);
}

/** Every mention of the bundle's folder in a string: its file's source. */
function rename(text) {
  return typeof text === 'string' && text.includes(bundle)
    ? text.replaceAll(new RegExp(`${bundle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[^\\s:'")]+\\.mjs`, 'g'), (path) => source(path))
    : text;
}

function mapped(event) {
  const data = event.data;
  if (!data || typeof data !== 'object') return event;
  const out = { ...data, name: rename(data.name) };
  if (typeof data.file === 'string' && data.file.startsWith(`${bundle}/`)) {
    const map = data.line ? sourceMap(data.file) : null;
    const entry = map?.findEntry(data.line - 1, (data.column ?? 1) - 1);
    if (entry?.originalSource) {
      out.file = entry.originalSource.startsWith('file:') ? new URL(entry.originalSource).pathname : entry.originalSource;
      out.line = entry.originalLine + 1;
      out.column = entry.originalColumn + 1;
    } else {
      out.file = source(data.file);
    }
  }
  if (typeof data.message === 'string') out.message = rename(data.message);
  return { ...event, data: out };
}

export default async function* reporter(events) {
  const renamed = (async function* () {
    for await (const event of events) yield mapped(event);
  })();
  if (process.stdout.isTTY || Number(process.versions.node.split('.')[0]) >= 23) {
    // A Transform stream class on Node 20 (the other reporters are async generator functions).
    let stream;
    try {
      stream = new spec();
    } catch {
      yield* spec(renamed);
      return;
    }
    yield* Readable.from(renamed).pipe(stream);
  } else {
    yield* tap(renamed);
  }
}
