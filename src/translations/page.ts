import { createHash } from 'node:crypto';
import { parseOptions } from '../content/documents.ts';
import { linkWriter } from '../content/links.ts';
import { parseMarkdown, writePage } from '../content/markdown/index.ts';
import type { PageFields } from '../content/nodes.ts';
import type { RevisionTree, TreePage } from '../content/tree.ts';
import type { GlossaryTerm } from './glossary.ts';
import { countWords, PageSegments } from './segments.ts';
import { keepHeadingMarks } from './headings.ts';

/** A page's settings and body as a hash: what a run compares to tell a changed page from an unchanged one. */
export function pageContentHash(page: TreePage): string {
  const { children: _children, git: _git, ...rest } = page.node;
  return createHash('sha256').update(JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1)))).digest('hex');
}

/** What translating one page produces: new settings and a new body. */
export interface TranslatedPage {
  fields: Partial<Omit<PageFields, 'id' | 'type'>>;
  markdown: string | undefined;
  /** How many segments (blocks, titles, alt texts) kept their source text because the engine's answer broke their markup. */
  keptSource: number;
}

/**
 * One page's work: its segments (title, description, body) and, once their translations are applied, the
 * page written back — the body over the source's Markdown, so everything that was not translated (code,
 * math, URLs, tags) keeps its bytes. The translated page keeps the source's slug, so its address (and the
 * relative links between pages) are the same in every language.
 */
export class PageTranslation {
  readonly segments: PageSegments;
  readonly words: number;
  private readonly fields: TranslatedPage['fields'] = {};
  private readonly body: ReturnType<typeof parseMarkdown> | undefined;

  constructor(
    private readonly tree: RevisionTree,
    private readonly page: TreePage,
    private readonly markdown: string,
    glossary: GlossaryTerm[],
  ) {
    this.segments = new PageSegments(glossary);
    const node = page.node;
    this.fields.title = node.title;
    if (page.slug !== null) this.fields.slug = page.slug;
    this.segments.addString(node.title, (value) => (this.fields.title = value.trim() || node.title));
    if (node.description) this.segments.addString(node.description, (value) => (this.fields.description = value));
    if (markdown) {
      this.body = parseMarkdown(markdown, parseOptions(tree, page));
      this.segments.addDocument(this.body.document);
    }
    this.words = this.segments.segments.reduce((sum, segment) => sum + countWords(segment), 0);
  }

  /** Applies the engine's translations (in the order of `segments.segments`) and writes the page. */
  finish(translations: string[]): TranslatedPage {
    const keptSource = this.segments.apply(translations);
    if (!this.body) return { fields: this.fields, markdown: undefined, keptSource };
    const options = parseOptions(this.tree, this.page);
    const written = writePage(this.body.document, { frontmatter: this.body.frontmatter, previous: this.markdown, parse: options, refUrl: linkWriter(this.tree, this.page) });
    return { fields: this.fields, markdown: keepHeadingMarks(this.markdown, written), keptSource };
  }
}
