/**
 * The link facts of a body as written: what can be known of its links without a tree. A body's
 * references depend on the tree it is read in (relative paths, file names), but only through the text of
 * each link, image and file source; the parse itself does not, with one exception (a `{% file %}` block
 * whose source names no file is given back as text, and whether it names one depends on the tree). So a
 * body is read once without a tree, each reference made from text is kept as that text, and resolving the
 * texts against a tree later (`resolveWritten`) gives exactly the references a parse in that tree gives.
 * A body with a file block whose source is not of the `files/<id>` form is marked `treeDependent`: it is
 * read in its tree each time, as before.
 */
import { extractSections, FrontmatterError, normalizeSource, parseMarkdown, type ContentRef, type Document, type ParseOptions } from '../markdown/index.ts';
import { fileIdOf, imageRefOf, linkRefOf, type WrittenVia } from '../markdown/refs.ts';
import { documentRefs, type FoundRef, type LinkRelation } from './extract.ts';

/**
 * Bumped whenever the Markdown reader changes what it makes of a body's links or headings: stored facts
 * of another version are read again from the body (and replaced).
 */
export const WRITTEN_FACTS_VERSION = 1;

/** A reference as the body wrote it: its text and how it was read, or (from a kept block's JSON) the reference itself. */
export type WrittenRef = { relation: LinkRelation; via: WrittenVia; text: string } | { relation: LinkRelation; ref: ContentRef };

export type WrittenFacts =
  /** The references in reading order (duplicates included) and the anchors of the body's headings. */
  | { treeDependent: false; refs: WrittenRef[]; anchors: string[] }
  /** The body's structure depends on its tree: it is read in the tree. */
  | { treeDependent: true };

/** Reads a body; front matter that cannot be read is set aside so that what is below it is still read. */
export function readMarkdownBody(markdown: string, options: ParseOptions = {}): Document {
  try {
    return parseMarkdown(markdown, options).document;
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    return parseMarkdown(normalizeSource(markdown).replace(/^---\n[\s\S]*?\n---(?:\n|$)/, ''), options).document;
  }
}

/** The anchors (heading ids) of a document. */
export function documentAnchors(document: Document): string[] {
  return [...new Set(extractSections(document).map((section) => section.id).filter((id) => id !== ''))];
}

const FILE_FORM = /^files\/[^/?#\s]+$/;

/**
 * Reads a body without a tree: its document (the same as `parseMarkdown(markdown)` gives, for readers
 * that want one, as the search index does) and its link facts as written.
 */
export function readWritten(markdown: string): { document: Document; facts: WrittenFacts } {
  const written = new WeakMap<object, { via: WrittenVia; text: string }>();
  let treeDependent = false;
  const document = readMarkdownBody(markdown, {
    noteWritten: (ref, text, via) => {
      // A file block's source names a file in every tree only in the `files/<id>` form.
      if (via === 'file' && !FILE_FORM.test(text)) treeDependent = true;
      if (ref) written.set(ref, { via, text });
    },
  });
  if (treeDependent) return { document, facts: { treeDependent: true } };
  const refs = documentRefs(document).map((found): WrittenRef => {
    const text = written.get(found.ref);
    return text ? { relation: found.relation, ...text } : { relation: found.relation, ref: found.ref };
  });
  return { document, facts: { treeDependent: false, refs, anchors: documentAnchors(document) } };
}

/**
 * What each written text resolves to, per resolver (one per folder of a tree) and per way it was read: the
 * same text in pages of one folder resolves to the same reference, so it is resolved once and its reference
 * shared (references are never changed once made). Only resolvers without a `noteWritten` hook are
 * remembered. The texts are the keys as they are (no key is made of them).
 */
interface Resolved {
  link: Map<string, ContentRef>;
  image: Map<string, ContentRef>;
  file: Map<string, ContentRef>;
}
const resolvedTexts = new WeakMap<ParseOptions, Resolved>();

function resolveText(via: WrittenVia, text: string, options: ParseOptions): ContentRef {
  switch (via) {
    case 'link':
      return linkRefOf(text, options);
    case 'image':
      return imageRefOf(text, options);
    case 'file':
      // Always a file: the source has the `files/<id>` form (else the facts are tree-dependent).
      return { kind: 'file', file: fileIdOf(text, options)! };
  }
}

/** The references of written facts in a tree: what a parse of the body with `options` (the tree's, for the page's folder) finds. */
export function resolveWritten(refs: WrittenRef[], options: ParseOptions): FoundRef[] {
  let known = options.noteWritten ? undefined : resolvedTexts.get(options);
  if (!known && !options.noteWritten) resolvedTexts.set(options, (known = { link: new Map(), image: new Map(), file: new Map() }));
  const found = new Array<FoundRef>(refs.length);
  for (let i = 0; i < refs.length; i++) {
    const written = refs[i];
    if ('ref' in written) found[i] = { relation: written.relation, ref: written.ref };
    else if (!known) found[i] = { relation: written.relation, ref: resolveText(written.via, written.text, options) };
    else {
      const texts = known[written.via];
      let ref = texts.get(written.text);
      if (!ref) texts.set(written.text, (ref = resolveText(written.via, written.text, options)));
      found[i] = { relation: written.relation, ref };
    }
  }
  return found;
}
