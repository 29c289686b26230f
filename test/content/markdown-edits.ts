/**
 * Random edits of a page's document, for the property tests of the remembering Markdown reader and writer
 * (test/content/markdown-memo.test.ts, test/page-edits/memo-save.test.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { renderMarkdown, type Document } from '../../src/content/markdown/index.ts';

export function markdownFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith('.md') ? [path] : [];
  });
}

/** A small seeded generator (mulberry32), so that a failure can be run again. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });

/** The bench's page (bench/live.ts): 1,000 paragraphs. */
export const benchPage = renderMarkdown({ object: 'document', data: {}, nodes: Array.from({ length: 1000 }, (_, i) => paragraph(`Paragraph ${i + 1} of Large.`)) } as unknown as Document);

/** The first text leaf under a node, to change. */
function firstLeaf(node: unknown): { text: string } | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const record = node as Record<string, unknown>;
  if (Array.isArray(record.leaves) && record.leaves.length > 0) return record.leaves[0] as { text: string };
  for (const key of ['nodes', 'fragments']) {
    const children = record[key];
    if (Array.isArray(children)) for (const child of children) {
      const leaf = firstLeaf(child);
      if (leaf) return leaf;
    }
  }
  return undefined;
}

/** One random edit of the document's top-level blocks, with blocks of `palette` to insert. */
export function edit(document: Document, palette: unknown[], next: () => number): Document {
  const nodes = structuredClone(document.nodes) as unknown[];
  const at = Math.floor(next() * (nodes.length + 1));
  const choice = next();
  if (choice < 0.3 && nodes.length > 0) {
    const leaf = firstLeaf(nodes[Math.min(at, nodes.length - 1)]);
    if (leaf) leaf.text = next() < 0.5 ? `${leaf.text} and more` : `Changed ${Math.floor(next() * 1000)}: ${leaf.text.slice(0, 20)}`;
  } else if (choice < 0.5 && nodes.length > 0) {
    nodes.splice(Math.min(at, nodes.length - 1), 1 + Math.floor(next() * 2));
  } else if (choice < 0.8) {
    nodes.splice(at, 0, structuredClone(palette[Math.floor(next() * palette.length)]));
  } else if (nodes.length > 1) {
    const [moved] = nodes.splice(Math.min(at, nodes.length - 1), 1);
    nodes.splice(Math.floor(next() * nodes.length), 0, moved);
  } else {
    nodes.push(paragraph('A new paragraph.'));
  }
  return { ...document, nodes } as Document;
}

