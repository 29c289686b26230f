import { Extension, type Editor, type JSONContent } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { convert } from './convert.ts';
import { officeHtml, officeSource, renameStyles, webHtml } from './paste-office.ts';

/** Text that reads as Markdown: a heading, a list, a quote, a fence, a table, a GitBook tag, or inline syntax. */
export function looksLikeMarkdown(text: string): boolean {
  return /^(#{1,6}\s|\s*[-*+]\s|\s*\d+[.)]\s|>\s?|```|\$\$|\|.*\||\{%|<details|<figure)/m.test(text) || /\*\*[^*\n]+\*\*|\[[^\]\n]+\]\([^)\s]+\)|`[^`\n]+`|(^|\s)_[^_\n]+_(\s|$)/.test(text);
}

/**
 * Markdown as editor content, read by Quire's own importer (src/content/markdown/, the converter the API
 * uses for a Markdown page), loaded in a chunk of its own on the first paste: what is pasted becomes the
 * blocks an import of the same Markdown gives, including GitBook's tags.
 */
export async function markdownToEditor(markdown: string): Promise<JSONContent[]> {
  const { parseMarkdown } = await import('../../../src/content/markdown/parse.ts');
  const { document } = parseMarkdown(markdown, {});
  return convert.blocksToEditor(document.nodes);
}

async function pasteMarkdown(editor: Editor, text: string): Promise<void> {
  const { from, to } = editor.state.selection;
  let content: JSONContent[];
  try {
    content = await markdownToEditor(text);
  } catch {
    // Markdown the importer refuses (too deep, too long) is pasted as the text it is.
    content = text.split(/\n{2,}/).map((paragraph) => ({ type: 'paragraph', content: paragraph ? [{ type: 'text', text: paragraph }] : [] }));
  }
  if (!content.length) return;
  // One paragraph goes into the line as inline content; anything more as blocks.
  const only = content.length === 1 && content[0].type === 'paragraph' ? (content[0].content ?? []) : content;
  editor.chain().focus().insertContentAt({ from, to }, only).run();
}

/**
 * Paste: Markdown (text with no HTML beside it, that reads as Markdown) goes through the importer; HTML (a web
 * page, Google Docs, Word) is made inert, Google Docs' and Word's is rewritten as plain tags (paste-office.ts),
 * then it goes through ProseMirror's clipboard parser over the editor's schema, which keeps only what the
 * schema's nodes and marks read (so nothing executable survives). Inside a code block, text stays text.
 */
/**
 * Pasted HTML without what could run or load: scripts, frames, objects, styles and every `on…` attribute are
 * removed in an inert document (DOMParser: nothing in it loads or runs) before ProseMirror reads it.
 */
export function inertHtml(html: string): string {
  // Chromium compiles an `on…` attribute as it parses, even in an inert document, and the Content-Security-
  // Policy then refuses it (nothing runs, but the refusal is reported): such attributes are cut from the text
  // first, then from the parsed document (which catches what this first pass misses).
  const parsed = new DOMParser().parseFromString(html.replace(/\son[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, ''), 'text/html');
  parsed.querySelectorAll('script, style, iframe, frame, object, embed, link, meta, template, noscript').forEach((element) => element.remove());
  for (const element of parsed.body.querySelectorAll('*'))
    for (const attribute of [...element.attributes]) if (/^on/i.test(attribute.name) || /^\s*javascript:/i.test(attribute.value)) element.removeAttribute(attribute.name);
  return parsed.body.innerHTML;
}

/** An address of a picture on its own (pasted, or dropped from another page): https, ending as an image does. */
export function imageAddress(text: string): string | null {
  const value = text.trim();
  if (/\s/.test(value)) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && /\.(png|jpe?g|gif|webp|svg|avif)$/i.test(url.pathname) ? url.href : null;
  } catch {
    return null;
  }
}

function imageBlockOf(url: string): JSONContent {
  const block = { object: 'block', type: 'images', data: {}, nodes: [{ object: 'block', type: 'image', data: { ref: { kind: 'url', url } }, fragments: [], isVoid: true }], isVoid: false };
  return { type: 'images', attrs: { block: JSON.stringify(block) } };
}

export const PasteConversion = Extension.create({
  name: 'pasteConversion',
  addProseMirrorPlugins() {
    const editor = this.editor;
    return [
      new Plugin({
        key: new PluginKey('paste-conversion'),
        props: {
          // Google Docs, Word and many web pages say in styles what the schema reads from tags: styles are renamed
          // before anything parses them (the CSP refuses inline styles) and read as marks (paste-office.ts).
          transformPastedHTML: (html) => {
            const source = officeSource(html);
            const inert = inertHtml(renameStyles(html));
            return source ? officeHtml(inert, source) : webHtml(inert);
          },
          // A picture dragged from another page arrives as its address: it becomes an image block where it is dropped.
          handleDrop: (view, event) => {
            const address = event.dataTransfer && !event.dataTransfer.files.length ? imageAddress(event.dataTransfer.getData('text/uri-list').split('\n')[0] ?? '') : null;
            const at = address ? view.posAtCoords({ left: event.clientX, top: event.clientY }) : null;
            if (!address || !at) return false;
            editor.chain().focus().insertContentAt(at.pos, imageBlockOf(address)).run();
            return true;
          },
          handlePaste: (view, event) => {
            const data = event.clipboardData;
            if (!data || view.state.selection.$from.parent.type.spec.code) return false;
            const text = data.getData('text/plain');
            const picture = !data.getData('text/html') && imageAddress(text);
            if (picture) {
              editor.chain().focus().insertContent(imageBlockOf(picture)).run();
              return true;
            }
            if (data.getData('text/html') || !text || !looksLikeMarkdown(text)) return false;
            void pasteMarkdown(editor, text);
            return true;
          },
        },
      }),
    ];
  },
});
