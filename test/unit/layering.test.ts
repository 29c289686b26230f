import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

/**
 * The dependency rules of docs/architecture.md, checked on the source: the "may import" table of its
 * "Layout" section; no cycle of any length, between areas or between files (type-only imports count: a
 * knot of types is untangled by moving the shared types down); job definitions import no work; row locks
 * only in src/db/. Nothing is exempt, the kernel included.
 */
const SRC = resolve(import.meta.dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The area of a file: `modules/<name>`, the top folder, or one of the root files (the assembly and the kernel). */
function areaOf(path: string): string {
  const parts = relative(SRC, path).split('/');
  if (parts.length === 1) return parts[0].replace(/\.ts$/, '');
  return parts[0] === 'modules' ? `modules/${parts[1]}` : parts[0];
}

/** The layers of docs/architecture.md ("Layout and the direction of dependencies"), lowest first. */
type Layer = 'assembly' | 'kernel' | 'db' | 'policy' | 'sessions' | 'access' | 'http' | 'engine' | 'module' | 'cli';

const ASSEMBLY = new Set(['app', 'server', 'services']);
const ENGINES = new Set([
  'audit', 'backup', 'content', 'embeds', 'expressions', 'git', 'imports', 'jobs', 'mcp', 'net', 'openapi',
  'operations', 'pdf', 'published', 'search', 'sites', 'storage', 'translations', 'workers',
  // The federated ways in and the mail channel, an engine's row of their own in the table.
  'sso', 'mail',
  // Serving the workspace (the browser application in web/).
  'workspace',
]);

function layerOf(area: string): Layer {
  if (ASSEMBLY.has(area)) return 'assembly';
  if (area.startsWith('modules/')) return 'module';
  // Live co-editing (src/live/): a module of its own, mounted on the HTTP server's upgrades.
  if (area === 'live') return 'module';
  if (ENGINES.has(area)) return 'engine';
  if (['db', 'policy', 'sessions', 'access', 'http', 'cli'].includes(area)) return area as Layer;
  if (!area.includes('/') && statSync(join(SRC, `${area}.ts`), { throwIfNoEntry: false })?.isFile()) return 'kernel';
  throw new Error(`src/${area} is in no layer of docs/architecture.md: add it to the table there and here.`);
}

/**
 * Which layers each layer may import (besides its own area). The kernel may name the types of the services
 * a Context carries (the database's, the policy ledger, the blob store) and nothing else.
 */
const MAY_IMPORT: Record<Layer, ReadonlySet<Layer>> = {
  assembly: new Set(['assembly', 'kernel', 'db', 'policy', 'sessions', 'access', 'http', 'engine', 'module']),
  kernel: new Set(['kernel']),
  db: new Set(['kernel']),
  policy: new Set(['kernel']),
  sessions: new Set(['kernel', 'db', 'engine']),
  access: new Set(['kernel', 'db', 'policy']),
  http: new Set(['kernel', 'db', 'policy', 'sessions']),
  engine: new Set(['kernel', 'db', 'policy', 'sessions', 'http', 'engine']),
  module: new Set(['kernel', 'db', 'policy', 'sessions', 'access', 'http', 'engine', 'module']),
  cli: new Set(['assembly', 'kernel', 'db', 'policy', 'sessions', 'access', 'http', 'engine', 'module']),
};

/** The engines the sign-in sessions may use, as the table says: the audit trail only. */
const SESSIONS_MAY_USE = new Set(['audit']);

/** The kernel's type-only imports of the services a Context carries (docs/architecture.md, the kernel's row). */
const KERNEL_SERVICE_TYPES = new Set(['db/types.ts', 'db/database.ts', 'policy/index.ts', 'storage/blobs.ts']);

interface Import {
  target: string;
  typeOnly: boolean;
}

const files = sourceFiles(SRC);
const importsOf = new Map<string, Import[]>();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  for (const m of text.matchAll(/(^|\n)\s*(import|export)(\s+type)?\s[^;]*?from\s*'(\.{1,2}\/[^']+)'/g)) found.push({ target: resolve(dirname(file), m[4]), typeOnly: Boolean(m[3]) });
  for (const m of text.matchAll(/import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)) found.push({ target: resolve(dirname(file), m[1]), typeOnly: false });
  for (const m of text.matchAll(/(^|\n)import\s+'(\.{1,2}\/[^']+)'/g)) found.push({ target: resolve(dirname(file), m[2]), typeOnly: false });
  importsOf.set(file, found);
}

/** The strongly connected components of more than one node (Tarjan): every cycle lies in one of them. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

const rel = (file: string) => relative(SRC, file);

/**
 * The two knots that Quire's document grammar makes on purpose, listed exactly (a file that joins one, or a
 * new knot, fails the test): a document's types are recursive across their two files (an annotation's note
 * holds blocks, which hold inlines), and the Markdown parser is one recursive descent over nested blocks,
 * split into files by construct (a container's content is parsed as blocks again).
 */
const RECURSIVE_GRAMMAR = [
  'content/markdown/types-blocks.ts ↔ content/markdown/types.ts',
  'content/markdown/parse-blocks.ts ↔ content/markdown/parse-containers.ts ↔ content/markdown/parse-gitbook.ts ↔ content/markdown/parse-html.ts',
];

describe('layering', () => {
  it('every import follows the "may import" table of docs/architecture.md', () => {
    const offenders: string[] = [];
    for (const [file, imports] of importsOf) {
      const from = areaOf(file);
      for (const { target, typeOnly } of imports) {
        const to = areaOf(target);
        if (from === to) continue;
        const [a, b] = [layerOf(from), layerOf(to)];
        if (MAY_IMPORT[a].has(b) && !(a === 'sessions' && b === 'engine' && !SESSIONS_MAY_USE.has(to))) continue;
        if (a === 'kernel' && typeOnly && KERNEL_SERVICE_TYPES.has(rel(target))) continue;
        offenders.push(`${rel(file)} (${a}) → ${rel(target)} (${b})`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('nothing imports routes but the assembly and the routes themselves', () => {
    const offenders: string[] = [];
    for (const [file, imports] of importsOf) {
      if (ASSEMBLY.has(areaOf(file)) || /routes/.test(rel(file))) continue;
      for (const { target } of imports) if (/\/routes(\/|\.ts$)/.test(rel(target))) offenders.push(`${rel(file)} → ${rel(target)}`);
    }
    assert.deepEqual(offenders, []);
  });

  it('no cycle between areas, of any length', () => {
    const graph = new Map<string, Set<string>>();
    for (const [file, imports] of importsOf) {
      const from = areaOf(file);
      for (const { target } of imports) {
        const to = areaOf(target);
        if (from === to) continue;
        if (!graph.has(from)) graph.set(from, new Set());
        graph.get(from)!.add(to);
      }
    }
    assert.deepEqual(cycles(graph).map((c) => c.join(' ↔ ')), []);
  });

  it('no cycle between files, of any length, type-only imports included', () => {
    const graph = new Map<string, Set<string>>();
    for (const [file, imports] of importsOf) graph.set(rel(file), new Set(imports.map(({ target }) => rel(target))));
    assert.deepEqual(cycles(graph).map((c) => c.join(' ↔ ')).filter((cycle) => !RECURSIVE_GRAMMAR.includes(cycle)), []);
  });

  it('a job definition (<name>-job.ts) imports only src/jobs/ and types, so enqueueing a job never loads its work', () => {
    const offenders: string[] = [];
    for (const [file, imports] of importsOf) {
      if (!file.endsWith('-job.ts')) continue;
      for (const { target, typeOnly } of imports) if (!typeOnly && !rel(target).startsWith('jobs/') && !rel(target).endsWith('context.ts')) offenders.push(`${rel(file)} → ${rel(target)}`);
    }
    assert.deepEqual(offenders, []);
  });

  it('routes hold no SQL: the queries are in services and access loaders', () => {
    const offenders = files.filter((file) => /routes/.test(rel(file)) && /\.(selectFrom|updateTable|insertInto|deleteFrom)\(|\bsql`/.test(readFileSync(file, 'utf8')));
    assert.deepEqual(offenders.map(rel), []);
  });

  it('rows are locked only through src/db/locks.ts', () => {
    const offenders = files.filter((file) => !rel(file).startsWith('db/') && /\.(forUpdate|forShare|forNoKeyUpdate|forKeyShare|skipLocked)\(/.test(readFileSync(file, 'utf8')));
    assert.deepEqual(offenders.map(rel), []);
  });
});
