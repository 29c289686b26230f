/**
 * What one page body says about links, kept across revisions: its references (as the revision's tree
 * resolves them) and its anchors. A new revision usually changes a few bodies and no path, so its analysis
 * parses only the bodies it changed; the facts of the others are reused.
 *
 * The references a body holds depend on the body, on the folder of its file (relative links) and on how
 * the tree resolves names: the paths of its pages and files and the ids of its reusable contents. That
 * last part is summed up by `resolutionKey`, computed once per tree.
 */
import { createHash } from 'node:crypto';
import { parseOptions } from '../documents.ts';
import { folderOfFile, pageFile } from '../links.ts';
import { LruCache } from '../../lru.ts';
import { extractSections, FrontmatterError, normalizeSource, parseMarkdown, type Document } from '../markdown/index.ts';
import { reusableContentsOf, reusableContentFile } from '../reusable-contents.ts';
import { walkPages, type RevisionTree, type TreePage } from '../tree.ts';
import { documentRefs, type FoundRef } from './extract.ts';

export interface BodyFacts {
  refs: FoundRef[];
  /** The body's anchors; read from the body the first time they are asked for when it holds no reference. */
  anchors(): ReadonlySet<string>;
}

/**
 * A body without any of these holds no reference (no link, image, tag, HTML, bare URL or e-mail address),
 * so it is parsed only if a link points at one of its anchors.
 */
const MAY_REFER = /[[<{@]|:\/\/|www\./i;

/** About 2,000,000 references and anchors in memory per process. */
const facts = new LruCache<string, BodyFacts>(500_000, 2_000_000);
const resolutionKeys = new WeakMap<RevisionTree, string>();

export const bodyFactsStats = { parsed: 0 };

/** A digest of everything by which a tree resolves the names written in its bodies. */
export function resolutionKey(tree: RevisionTree): string {
  const known = resolutionKeys.get(tree);
  if (known) return known;
  const hash = createHash('sha1');
  for (const page of walkPages(tree.pages)) hash.update(`p\t${page.node.id}\t${page.node.type}\t${page.path}\t${pageFile(page)}\n`);
  for (const file of tree.files.values()) hash.update(`f\t${file.id}\t${file.name}\t${file.git?.path ?? ''}\n`);
  for (const content of reusableContentsOf(tree)) hash.update(`r\t${content.id}\t${reusableContentFile(content)}\n`);
  const key = hash.digest('base64url');
  resolutionKeys.set(tree, key);
  return key;
}

/** Reads a body; front matter that cannot be read is set aside so that the links below it are still found. */
function readBody(markdown: string, tree: RevisionTree, page: TreePage): Document {
  const options = parseOptions(tree, page);
  try {
    return parseMarkdown(markdown, options).document;
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    return parseMarkdown(normalizeSource(markdown).replace(/^---\n[\s\S]*?\n---(?:\n|$)/, ''), options).document;
  }
}

function factsKey(tree: RevisionTree, page: TreePage, bodyHash: string): string {
  return `${bodyHash}|${folderOfFile(pageFile(page)).join('/')}|${resolutionKey(tree)}`;
}

function anchorsOf(document: Document): ReadonlySet<string> {
  return new Set(extractSections(document).map((section) => section.id).filter((id) => id !== ''));
}

/** The facts of a body already read (by this or an earlier revision with the same paths), without its source. */
export function knownBodyFacts(tree: RevisionTree, page: TreePage, bodyHash: string): BodyFacts | undefined {
  return facts.get(factsKey(tree, page, bodyHash));
}

/** The facts of the body `source` (stored as `bodyHash`) of `page` in `tree`: from memory, or read once. */
export function bodyFacts(tree: RevisionTree, page: TreePage, bodyHash: string, source: string): BodyFacts {
  const key = factsKey(tree, page, bodyHash);
  const known = facts.get(key);
  if (known) return known;
  let found: BodyFacts;
  if (MAY_REFER.test(source)) {
    bodyFactsStats.parsed++;
    const document = readBody(source, tree, page);
    const anchors = anchorsOf(document);
    found = { refs: documentRefs(document), anchors: () => anchors };
  } else {
    let anchors: ReadonlySet<string> | undefined;
    found = {
      refs: [],
      anchors: () => {
        if (!anchors) {
          bodyFactsStats.parsed++;
          anchors = anchorsOf(readBody(source, tree, page));
        }
        return anchors;
      },
    };
  }
  facts.set(key, found, 1 + found.refs.length + Math.ceil(source.length / 1000));
  return found;
}
