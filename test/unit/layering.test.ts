import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

/**
 * The dependency rules of docs/architecture.md, checked on the source: engines never import modules;
 * modules import engines and access; no two areas import each other; row locks only in src/db/.
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

/** The root files that assemble the app: they may import anything, and nothing but the CLI imports them. */
const ASSEMBLY = new Set(['app', 'server', 'services']);
/** The Context every function takes: it names the types of the services it carries, so it sits outside the cycle rule. */
const KERNEL = 'context';

const files = sourceFiles(SRC);
const edges = new Map<string, Set<string>>();
const importsOf = new Map<string, string[]>();
for (const file of files) {
  const targets = [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => resolve(dirname(file), m[1]));
  importsOf.set(file, targets);
  for (const target of targets) {
    const [a, b] = [areaOf(file), areaOf(target)];
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a)!.add(b);
  }
}

describe('layering', () => {
  it('engines and the kernel never import modules, routes or the assembly', () => {
    const offenders: string[] = [];
    for (const [file, targets] of importsOf) {
      const area = areaOf(file);
      if (area.startsWith('modules/') || ASSEMBLY.has(area) || area === 'cli') continue;
      for (const target of targets) {
        const to = areaOf(target);
        if (to.startsWith('modules/') || ASSEMBLY.has(to)) offenders.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('nothing imports routes but the assembly and the routes themselves', () => {
    const offenders: string[] = [];
    for (const [file, targets] of importsOf) {
      if (ASSEMBLY.has(areaOf(file)) || /routes/.test(relative(SRC, file))) continue;
      for (const target of targets) if (/\/routes(\/|\.ts$)/.test(relative(SRC, target))) offenders.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
    }
    assert.deepEqual(offenders, []);
  });

  it('no two areas import each other', () => {
    const pairs: string[] = [];
    for (const [a, targets] of edges) {
      for (const b of targets) if (a < b && edges.get(b)?.has(a) && ![a, b].some((x) => ASSEMBLY.has(x) || x === KERNEL)) pairs.push(`${a} ↔ ${b}`);
    }
    assert.deepEqual(pairs, []);
  });

  it('rows are locked only through src/db/locks.ts', () => {
    const offenders = files.filter((file) => !relative(SRC, file).startsWith('db/') && /\.(forUpdate|forShare|forNoKeyUpdate|forKeyShare|skipLocked)\(/.test(readFileSync(file, 'utf8')));
    assert.deepEqual(offenders.map((file) => relative(SRC, file)), []);
  });
});
